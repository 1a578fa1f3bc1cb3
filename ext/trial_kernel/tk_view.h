/* What one player sees (views.py): the hash of their observation, and their information-state
 * key: the history as they saw it (TState.seen, folded entry by entry) with that observation.
 *
 * The observation hash reads exactly what views.observation(p) shows and nothing else: the
 * player's own hand, cards aside and tents as sets, the others' as counts; face-down story cards
 * of others by their column only; deck contents as layer sizes (a top card only when p saw it);
 * unseen ruins as counts; tents others left as "face down"; the steps waiting as p sees them
 * (others' face-down fight and Swindler cards counted). Lists the observation shows in order are
 * hashed in order (by their sequence numbers, never the numbers themselves), lists it shows
 * sorted are hashed as sets. So two states with the same observation for p hash the same, and
 * the key is equal exactly when p's information-state strings are (as a 64-bit hash can be). */
#ifndef TK_VIEW_H
#define TK_VIEW_H

#include "tk_api.h"

typedef struct { uint64_t h; } THash;

TK_INLINE void hv(THash* x, uint64_t v) { x->h = tk_mix(x->h ^ (v + 0x632BE59BD9B4E019ull)); }
TK_INLINE void hv2(THash* x, uint64_t a, uint64_t b) { hv(x, (a << 32) ^ b); }

/* the cards of (zone, who) in order, hashed as a list (its length, then each) */
TK_INLINE void hash_zone_list(THash* x, const TGame* g, const TState* s, int zone, int who) {
    uint8_t list[TK_MAX_CARDS];
    int n = zone_list(g, s, zone, who, list);
    hv2(x, 0x11, (uint64_t)n);
    for (int i = 0; i < n; i++) hv(x, list[i]);
}

TK_INLINE void hash_zone_set(THash* x, const TGame* g, const TState* s, int zone, int who) {
    int n = 0;
    for (int c = 0; c < g->n_cards; c++)
        if (card_in(s, c, zone, who)) { hv2(x, 0x12, (uint64_t)c); n++; }
    hv2(x, 0x13, (uint64_t)n);
}

TK_INLINE void hash_multiset(THash* x, const uint8_t* items, int n, int range) {
    int counts[256] = {0};
    for (int i = 0; i < n; i++) counts[items[i]]++;
    for (int k = 0; k < range; k++) if (counts[k]) hv2(x, (uint64_t)k, (uint64_t)counts[k]);
    hv2(x, 0x14, (uint64_t)n);
}

TK_INLINE void hash_list8(THash* x, const uint8_t* items, int n) {
    hv2(x, 0x15, (uint64_t)n);
    for (int i = 0; i < n; i++) hv(x, items[i]);
}

static void hash_player(THash* x, const TGame* g, const TState* s, int q, int p) {
    const TPlayer* me = &s->players[q];
    hv2(x, 0x20, me->space);
    for (int f = 0; f < N_FOODS; f++) hv(x, me->food[f]);
    hash_list8(x, me->backpack, me->n_backpack);
    hash_list8(x, me->gallery, me->n_gallery);
    uint8_t story[TK_MAX_CARDS];
    int n = zone_list(g, s, Z_STORY, q, story);
    hv2(x, 0x21, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        const TCard* k = &s->cards[story[i]];
        int shown = k->faceup || q == p;
        hv2(x, shown ? story[i] : 0xFFFF, ((uint64_t)k->faceup << 8) | k->sub);
    }
    hv2(x, 0x22, (uint64_t)(me->morality + 64));
    hv2(x, me->paws, me->strong_paw);
    hv2(x, 0x23, me->n_placed);
    for (int i = 0; i < me->n_placed; i++) hv2(x, me->placed_target[i], me->placed_strong[i]);
    for (int a = 0; a < g->n_areas; a++) hv(x, me->flags[a]);
    for (int i = 0; i < 4; i++) hv(x, me->tent_symbols[i]);
    hv(x, me->camped);
    if (q == p) {
        hash_zone_set(x, g, s, Z_HAND, q);
        hash_zone_set(x, g, s, Z_ASIDE, q);
        hash_multiset(x, me->tents, me->n_tents, TK_BONUSES);
    } else {
        hv2(x, 0x24, (uint64_t)zone_count(g, s, Z_HAND, q));
        hv2(x, 0x25, (uint64_t)zone_count(g, s, Z_ASIDE, q));
        hv2(x, 0x26, me->n_tents);
    }
}

static void hash_decks(THash* x, const TGame* g, const TState* s, int p) {
    for (int d = 0; d < 2 + g->n_areas; d++) {
        uint8_t cards[TK_MAX_CARDS];
        int n = zone_cards(g, s, Z_DECK, d, cards);
        hv2(x, 0x30, (uint64_t)n);
        int last = -1;   /* the layers' sizes, in order: each next layer by its number */
        for (int seen = 0; seen < n;) {
            int layer = 256, size = 0;
            for (int i = 0; i < n; i++) {
                int sub = s->cards[cards[i]].sub;
                if (sub > last && sub < layer) { layer = sub; size = 1; }
                else if (sub == layer) size++;
            }
            hv(x, (uint64_t)size);
            seen += size;
            last = layer;
        }
        hash_zone_list(x, g, s, Z_DISCARD, d);
        const TDeck* dk = &s->decks[d];
        if (dk->top == TK_NONE) hv(x, 0x31);
        else if ((dk->viewers >> p) & 1) hv2(x, 0x32, dk->top);
        else hv(x, 0x33);
    }
}

static void hash_board(THash* x, const TGame* g, const TState* s, int p) {
    for (int f = 0; f < N_FOODS; f++) hv2(x, s->tray[f], s->gallery_food[f]);
    for (int i = 0; i < TK_SLOTS; i++) hv2(x, s->tiles[i], s->flipped[i]);
    for (int r = 0; r < TK_RUINS; r++) {
        if ((s->ruin_seen[r] >> p) & 1) { hv(x, 0x40); hash_multiset(x, s->ruin_items[r], s->n_ruin[r], TK_MAX_KINDS); }
        else hv2(x, 0x41, s->n_ruin[r]);
    }
    for (int i = 0; i < TK_MAX_SPACES / 8; i++) hv2(x, s->tunnel_open[i], s->tunnel_collapsed[i]);
    hv2(x, 0x42, s->tunnel_tokens);
    for (int i = 0; i < TK_CELLS; i++) hv2(x, s->store_count[i] ? s->store_kind[i] : TK_NONE, s->store_count[i]);
    hash_multiset(x, s->available, s->n_available, TK_MAX_KINDS);
    for (int i = 0; i < g->row_size; i++) hv(x, s->row[i]);
    for (int t = 0; t < g->n_legendary; t++) hv(x, s->legendary[t]);
    for (int i = 0; i <= g->n_campsites; i++) {
        if (s->camp_tent[i] == TK_NONE) hv(x, 0x43);
        else if (s->camp_owner[i] == p) hv2(x, 0x44, s->camp_tent[i]);
        else hv(x, 0x45);
    }
    hv2(x, 0x46, s->n_box_tents);
    hash_multiset(x, s->used_tents, s->n_used_tents, TK_BONUSES);
    hash_multiset(x, s->box_items, s->n_box_items, TK_MAX_KINDS);
    hash_multiset(x, s->box_artifacts, s->n_box_artifacts, TK_MAX_KINDS);
    if (s->has_setup_pool) hv2(x, 0x47, ((uint64_t)s->n_common << 16) | ((uint64_t)s->n_rare << 8) |
                                        (s->has_one_each ? (uint64_t)s->n_one_each + 1 : 0));
    else hv(x, 0x48);
}

static void hash_record(THash* x, const TGame* g, const TRecord* r) {
    if (!r->present) { hv(x, 0x50); return; }
    hv2(x, r->card, ((uint64_t)r->attacker << 16) | ((uint64_t)r->defender << 8) | r->winner);
    hv2(x, (uint64_t)(uint16_t)r->strength[0], (uint64_t)(uint16_t)r->strength[1]);
    for (int side = 0; side < 2; side++) {
        hv(x, 0x51);
        for (int i = 0; i < r->n_rolls; i++)
            if (ROLL_SIDE(r->rolls[i]) == side && ROLL_PURPOSE(r->rolls[i]) == PU_STRENGTH)
                hv(x, (uint64_t)g->dface_strength[ROLL_FACE(r->rolls[i])]);
    }
    hv(x, 0x52);
    for (int i = 0; i < r->n_rolls; i++) {
        int face = ROLL_FACE(r->rolls[i]);
        if (ROLL_PURPOSE(r->rolls[i]) == PU_BOW)
            hv2(x, ROLL_SIDE(r->rolls[i]), g->dface_win[face] ? 0xFFFF : (uint64_t)g->dface_strength[face]);
    }
}

/* One frame as p sees it (the hidden parts counted; stale bytes of a roll left out). */
static void hash_frame(THash* x, const TGame* g, const TState* s, const TFrame* f, int p) {
    TFrame c = *f;
    c.rep = 1;
    if (c.kind == K_ROLL || c.kind == K_SWINDLE_ROLL)
        for (int i = 1 + c.v[0]; i < 5; i++) c.v[i] = 0;
    if (c.kind == K_PICK_COLUMN && c.player != p) c.card = TK_NONE;
    if (c.kind == K_PAY) {   /* the units still to pay, by type */
        uint16_t units[TK_UNITS];
        int n = units_of(g, c.node, c.v[0], units);
        hv2(x, 0x60, (uint64_t)(n - c.v[1]));
        for (int i = c.v[1]; i < n; i++) hv(x, g->terms[units[i]].unit_type);
        c.node = 0;
        c.v[0] = c.v[1] = 0;
    }
    uint64_t w[2];
    memcpy(w, &c, sizeof w);
    hv(x, w[0]);
    hv(x, w[1]);
    hv(x, ((uint64_t)c.node << 16) ^ (uint16_t)c.x);
    const TFight* fi = &s->fight;
    if (c.kind == K_FIGHT) {
        hv2(x, fi->card, ((uint64_t)fi->stage << 24) | ((uint64_t)fi->defender << 16) |
                             ((uint64_t)fi->winner << 8) | fi->stake);
        hv2(x, fi->weapons[0], fi->weapons[1]);
        hv2(x, (uint64_t)(uint16_t)fi->discard[0], (uint64_t)(uint16_t)fi->discard[1]);
        hv2(x, (uint64_t)(uint16_t)fi->foe_strength, (uint64_t)(uint16_t)fi->foe_dice);
        hv2(x, fi->node, fi->n_rolls);
        for (int i = 0; i < fi->n_rolls; i++) hv(x, fi->rolls[i]);
        for (int side = 0; side < 2; side++) {
            int owner = side == 0 ? fi->attacker : (fi->defender == TK_NONE ? -1 : fi->defender);
            hv2(x, 0x61, fi->n_down[side]);
            if (owner == p) for (int i = 0; i < fi->n_down[side]; i++) hv(x, fi->down[side][i]);
        }
    } else if (c.kind == K_SWINDLE) {
        hv2(x, 0x62, s->n_swindle);
        if (c.player == p) for (int i = 0; i < s->n_swindle; i++) hv(x, s->swindle[i]);
    } else if (c.kind == K_STORE_VISIT) {
        hash_list8(x, s->bought, s->n_bought);
        hash_list8(x, s->sold, s->n_sold);
    } else if (c.kind == K_FROM_DISCARD) {
        hv2(x, s->choices[0], s->choices[1]);
    }
}

static uint64_t tk_observation_hash(const TGame* g, const TState* s, int p) {
    THash x = {0x9E3779B97F4A7C15ull};
    hv2(&x, (uint64_t)p, s->day);
    hv2(&x, s->first_player, ((uint64_t)s->turn_player << 8) | s->game_over);
    for (int q = 0; q < s->player_count; q++) hash_player(&x, g, s, q, p);
    hash_decks(&x, g, s, p);
    hash_board(&x, g, s, p);
    hash_record(&x, g, &s->last_fight);
    hv2(&x, 0x70, s->depth);
    for (int i = 0; i < s->depth; i++) {
        const TFrame* f = &s->stack[i];
        if (f->kind == K_SETUP_QUEUE) { hv2(&x, 0x71, (uint64_t)f->x); continue; }
        for (int r = 0; r < f->rep; r++) hash_frame(&x, g, s, f, p);
    }
    return x.h;
}

/* The key of p's information state: p's view of the history, then p's observation. */
static uint64_t tk_info_key(const TGame* g, const TState* s, int p) {
    return tk_mix(s->seen[1 << p] ^ (tk_observation_hash(g, s, p) * 0xD6E8FEB86659FD93ull));
}

#endif
