/* Fights and dice (fights.py): weapons, the bow and the shield, the dice, the two card stages,
 * the fight's end and its public record. One fight at a time: its fields are TState.fight. */
#ifndef TK_FIGHT_H
#define TK_FIGHT_H

#include "tk_pay.h"

#define ROLL_BYTE(side, purpose, face) ((uint8_t)(((side) << 7) | ((purpose) << 5) | (face)))
#define ROLL_SIDE(b) ((b) >> 7)
#define ROLL_PURPOSE(b) (((b) >> 5) & 3)
#define ROLL_FACE(b) ((b) & 31)

TK_INLINE int base_strength(const TGame* g, const TState* s, int p) {
    return g->board_strength + story_symbols(g, s, p, SYM_STRENGTH);
}

/* fights.weapons as a bit set of kinds */
TK_INLINE uint64_t weapon_kinds(const TGame* g, const TState* s, int p) {
    uint64_t m = 0;
    const TPlayer* me = &s->players[p];
    for (int i = 0; i < me->n_backpack; i++) {
        int k = me->backpack[i];
        if (g->kind_strength[k] || g->kind_dice[k] || g->kind_bow[k]) m |= 1ull << k;
    }
    return m;
}

TK_INLINE int adventurer_dice(const TGame* g, const TState* s, int p, int weapon) {
    int extra = weapon != TK_NONE ? g->kind_dice[weapon] : 0;
    return 1 + story_symbols(g, s, p, SYM_DIE) + extra;
}

TK_INLINE int foe_dice(const TGame* g, const TState* s, int p, int printed) {
    int shield = 0;
    const TPlayer* me = &s->players[p];
    for (int i = 0; i < me->n_backpack; i++) shield |= g->kind_shield[me->backpack[i]] != 0;
    int n = printed - (shield ? 1 : 0);
    return n < 0 ? 0 : n;
}

TK_INLINE int fight_side_player(const TState* s, int side) {
    if (side == 0) return s->fight.attacker;
    return s->fight.defender == TK_NONE ? -1 : s->fight.defender;
}

TK_INLINE int fight_attacker(const TState* s) { return s->fight.attacker; }

TK_INLINE int rolled_sum(const TGame* g, const uint8_t* rolls, int n, int side) {
    int sum = 0;
    for (int i = 0; i < n; i++)
        if (ROLL_SIDE(rolls[i]) == side && ROLL_PURPOSE(rolls[i]) == PU_STRENGTH)
            sum += g->dface_strength[ROLL_FACE(rolls[i])];
    return sum;
}

/* fights.totals: both sides' strength (without the face-down cards when face_down is 0) */
TK_INLINE void fight_totals(const TGame* g, const TState* s, int face_down, int out[2]) {
    const TFight* f = &s->fight;
    for (int side = 0; side < 2; side++) {
        int dice = rolled_sum(g, f->rolls, f->n_rolls, side);
        if (side == 1 && f->defender == TK_NONE) { out[1] = f->foe_strength + dice; continue; }
        int q = side == 0 ? fight_attacker(s) : f->defender;
        int w = f->weapons[side];
        int total = base_strength(g, s, q) + (w != TK_NONE ? g->kind_strength[w] : 0) + dice +
                    f->discard[side];
        if (face_down)
            for (int i = 0; i < f->n_down[side]; i++) total += g->card_strength_facedown[f->down[side][i]];
        out[side] = total;
    }
}

TK_INLINE void push_die(TState* s, int p, int parent, int side, int purpose) {
    TFrame f = frame_of(K_DIE, p);
    f.v[0] = (uint8_t)parent;
    f.v[1] = (uint8_t)side;
    f.v[2] = (uint8_t)purpose;
    push_frame(s, &f);
}

/* Start a fight (its frame on the stack, its fields in s->fight). */
TK_INLINE void push_fight(TState* s, int p, int defender, int card, int node, int strength,
                          int dice, int stake) {
    TFight* f = &s->fight;
    memset(f, 0, sizeof *f);
    f->card = (uint8_t)card;
    f->attacker = (uint8_t)p;
    f->defender = (uint8_t)(defender < 0 ? TK_NONE : defender);
    f->winner = TK_NONE;
    f->weapons[0] = f->weapons[1] = TK_NONE;
    f->stake = (uint8_t)stake;
    f->node = (uint16_t)node;
    f->foe_strength = (int16_t)strength;
    f->foe_dice = (int16_t)dice;
    f->stage = ST_WEAPON_A;
    TFrame* fr = push(s, K_FIGHT, p);
    fr->card = (uint8_t)card;
}

/* -- the fight's public record and its history texts --------------------------------------- */
TK_INLINE void tx_dice(TText* t, const TGame* g, const uint8_t* rolls, int n, int side) {
    int first = 1;
    tx_ch(t, '[');
    for (int i = 0; i < n; i++) {
        if (ROLL_SIDE(rolls[i]) != side || ROLL_PURPOSE(rolls[i]) != PU_STRENGTH) continue;
        if (!first) tx_ch(t, ',');
        first = 0;
        tx_int(t, g->dface_strength[ROLL_FACE(rolls[i])]);
    }
    tx_ch(t, ']');
}

/* "fight:" + json.dumps(fight_record, sort_keys=True, separators=(",", ":")) */
TK_INLINE void tx_fight_record(TText* t, const TGame* g, const TRecord* r) {
    int bow_win = 0, first = 1;
    tx_str(t, "fight:{\"attacker\":");
    tx_int(t, r->attacker);
    tx_str(t, ",\"bow\":[");
    for (int i = 0; i < r->n_rolls; i++) {
        uint8_t b = r->rolls[i];
        if (ROLL_PURPOSE(b) != PU_BOW) continue;
        if (!first) tx_ch(t, ',');
        first = 0;
        tx_ch(t, '[');
        tx_int(t, ROLL_SIDE(b));
        tx_ch(t, ',');
        if (g->dface_win[ROLL_FACE(b)]) { tx_str(t, "\"win\""); bow_win = 1; }
        else tx_int(t, g->dface_strength[ROLL_FACE(b)]);
        tx_ch(t, ']');
    }
    tx_str(t, bow_win && r->winner != TK_NONE ? "],\"by\":\"bow\",\"card\":" : "],\"by\":\"strength\",\"card\":");
    tx_name(t, g, g->str_card_json[r->card]);
    tx_str(t, ",\"defender\":");
    if (r->defender == TK_NONE) tx_str(t, "null");
    else tx_int(t, r->defender);
    tx_str(t, ",\"dice\":[");
    tx_dice(t, g, r->rolls, r->n_rolls, 0);
    tx_ch(t, ',');
    tx_dice(t, g, r->rolls, r->n_rolls, 1);
    tx_str(t, "],\"strength\":[");
    tx_int(t, r->strength[0]);
    tx_ch(t, ',');
    tx_int(t, r->strength[1]);
    tx_str(t, r->winner == 0 ? "],\"winner\":\"attacker\"}" : "],\"winner\":\"defender\"}");
}

#endif
