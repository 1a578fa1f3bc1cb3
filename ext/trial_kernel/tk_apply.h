/* Applying an action to the top step, running automatic steps, settling the stack, the turn
 * order (the apply/run methods of the reference's step classes, rules._settle, turns.next_turn),
 * and the history entry and card record of every action (history.action_entry, history.track). */
#ifndef TK_APPLY_H
#define TK_APPLY_H

#include "tk_steps.h"

/* -- fights: the fight step's run and its end (fights.Fight.run, fights._finish) -------------- */
static void fight_finish(const TGame* g, TState* s, int idx, TSink* sink) {
    TFight* f = &s->fight;
    int attacker = f->attacker, duel = f->defender != TK_NONE;
    remove_frame(s, idx);
    if (f->winner == TK_NONE) {
        int t[2];
        fight_totals(g, s, 1, t);
        f->winner = t[0] > t[1] ? 0 : 1;
    }
    int winner = f->winner;
    if (f->n_down[0] || f->n_down[1]) {
        TText t;
        tx_reset(&t);
        tx_str(&t, "reveal:fight:");
        for (int side = 0; side < 2; side++) {
            if (side) tx_ch(&t, ':');
            for (int i = 0; i < f->n_down[side]; i++) {
                if (i) tx_ch(&t, ',');
                tx_name(&t, g, g->str_card[f->down[side][i]]);
            }
        }
        note_public(s, sink, &t);
        for (int i = 0; i < f->n_down[1 - winner]; i++) know1(g, s, f->down[1 - winner][i], (uint8_t)everyone(s));
    }
    TRecord* r = &s->last_fight;
    int totals[2];
    fight_totals(g, s, 1, totals);
    r->present = 1;
    r->card = f->card;
    r->attacker = (uint8_t)attacker;
    r->defender = f->defender;
    r->winner = (uint8_t)winner;
    r->strength[0] = (int16_t)totals[0];
    r->strength[1] = (int16_t)totals[1];
    r->n_rolls = f->n_rolls;
    memcpy(r->rolls, f->rolls, sizeof r->rolls);
    TText t;
    tx_reset(&t);
    tx_fight_record(&t, g, r);
    note_public(s, sink, &t);
    for (int side = 0; side < (duel ? 2 : 1); side++) {
        int q = side == 0 ? attacker : f->defender;
        for (int i = 0; i < f->n_down[side]; i++) {
            int c = f->down[side][i];
            if (side == winner) discard_card(g, s, c);
            else card_put(s, c, Z_HAND, q, 0);
        }
    }
    f->n_down[0] = f->n_down[1] = 0;
    int res = find_resolve(s, f->card);
    if (duel) {
        int wp = winner == 0 ? attacker : f->defender, lp = winner == 0 ? f->defender : attacker;
        if (res >= 0) s->stack[res].v[5] = (uint8_t)wp;
        if (f->stake && food_total(&s->players[lp])) push_pick_food(s, lp, 1, wp);
        return;
    }
    const TNode* foe = &g->nodes[f->node];
    if (winner == 1 && res >= 0) s->stack[res].v[3] = foe->c;
    push_effects(g, s, attacker, f->card, winner == 0 ? foe->n1 : foe->n2);
}

static void fight_run(const TGame* g, TState* s, int idx, TSink* sink) {
    TFight* f = &s->fight;
    int stage = f->stage, duel = f->defender != TK_NONE, p = f->attacker;
    for (int i = 0; i < f->n_rolls; i++) {
        uint8_t b = f->rolls[i];
        if (ROLL_PURPOSE(b) == PU_BOW && g->dface_win[ROLL_FACE(b)] && f->winner == TK_NONE) {
            f->winner = (uint8_t)ROLL_SIDE(b);
            f->stage = stage = ST_END;
        }
    }
    if (stage != ST_END) f->stage = (uint8_t)(stage + 1);
    if (stage == ST_WEAPON_A && weapon_kinds(g, s, p)) {
        TFrame* x = push(s, K_FIGHT_WEAPON, p);
        x->v[0] = 0;
    } else if (stage == ST_BOW_A && f->weapons[0] != TK_NONE && f->weapons[0] == g->kind_bow_name) {
        push_die(s, p, K_FIGHT, 0, PU_BOW);
    } else if (stage == ST_WEAPON_D && duel && weapon_kinds(g, s, f->defender)) {
        TFrame* x = push(s, K_FIGHT_WEAPON, f->defender);
        x->v[0] = 1;
    } else if (stage == ST_BOW_D && duel && f->weapons[1] != TK_NONE && f->weapons[1] == g->kind_bow_name) {
        push_die(s, f->defender, K_FIGHT, 1, PU_BOW);
    } else if (stage == ST_ROLL_D || stage == ST_ROLL_A) {
        int side = stage == ST_ROLL_D;
        int dice = (side == 1 && !duel) ? foe_dice(g, s, p, f->foe_dice)
                                        : adventurer_dice(g, s, side ? f->defender : p, f->weapons[side]);
        for (int i = 0; i < dice; i++) push_die(s, p, K_FIGHT, side, PU_STRENGTH);
    } else if ((stage == ST_DISCARD_A || stage == ST_DISCARD_D) && (stage == ST_DISCARD_A || duel)) {
        int side = stage == ST_DISCARD_D, q = side ? f->defender : p;
        if (hand_size(g, s, q) || s->players[q].tent_symbols[TS_STRENGTH]) {
            TFrame* x = push(s, K_FIGHT_DISCARD, q);
            x->v[0] = (uint8_t)side;
        }
    } else if ((stage == ST_CARDS_A || stage == ST_CARDS_D) && (stage == ST_CARDS_A || duel)) {
        int side = stage == ST_CARDS_D, q = side ? f->defender : p;
        if (hand_size(g, s, q)) {
            TFrame* x = push(s, K_FIGHT_CARDS, q);
            x->v[0] = (uint8_t)side;
        }
    } else if (stage == ST_END) {
        fight_finish(g, s, idx, sink);
    }
}

/* -- locations (locations.UseLocation.run, TurnTile.run) ------------------------------------- */
static void use_location(const TGame* g, TState* s, int p, int slot, int strong, TSink* sink) {
    int tile = s->tiles[slot], flipped = s->flipped[slot];
    if (tile == TK_NONE) return;
    int type = g->tile_type[tile];
    TFrame* f;
    if (type == LT_GROVE && !flipped) {
        push_with_enhancement(s, p, 0, K_HARVEST, g->tile_food[tile], strong ? 1 : 0);
    } else if (type == LT_GROVE) {
        f = push(s, K_EXCHANGE, p);
        f->v[0] = g->tile_ruined[tile];
    } else if (type == LT_LOOKOUT && !flipped) {
        push_with_enhancement(s, p, 1, K_LOOKOUT_DRAW, strong ? 4 : 2, 0);
    } else if (type == LT_LOOKOUT) {
        uint8_t pile[TK_MAX_CARDS];
        int m = zone_list(g, s, Z_DISCARD, DECK_DEEDS, pile);
        s->choices[0] = s->choices[1] = 0;
        for (int i = 0; i < m; i++) s->choices[pile[i] >> 6] |= 1ull << (pile[i] & 63);
        f = push(s, K_FROM_DISCARD, p);
        f->v[0] = g->tile_ruined[tile];
    } else if (type == LT_STORE && !flipped) {
        f = push(s, K_STORE_VISIT, p);
        f->v[0] = strong ? 1 : 0;
        s->n_bought = s->n_sold = 0;
    } else if (type == LT_STORE) {
        f = push(s, K_RUINED_STORE_SALE, p);
        f->v[0] = g->tile_ruined[tile];
    } else if (!flipped) {   /* ruins: the items are looked at, then one may be bought */
        int r = g->slot_ruin[slot];
        s->ruin_seen[r] |= (uint8_t)(1 << p);
        TText t, red;
        tx_reset(&t);
        tx_str(&t, "look:");
        tx_name(&t, g, g->str_space[g->slot_space[slot]]);
        tx_ch(&t, ':');
        tx_copy(&red, &t);
        tx_ch(&red, '?');
        uint8_t items[TK_RUIN_ITEMS];
        int m = s->n_ruin[r];
        memcpy(items, s->ruin_items[r], (size_t)m);
        for (int i = 1; i < m; i++) {   /* sorted by id */
            uint8_t k = items[i];
            int j = i - 1;
            while (j >= 0 && g->kind_rank[items[j]] > g->kind_rank[k]) { items[j + 1] = items[j]; j--; }
            items[j + 1] = k;
        }
        for (int i = 0; i < m; i++) {
            if (i) tx_ch(&t, ',');
            tx_name(&t, g, g->str_kind[items[i]]);
        }
        hist_add(s, sink, 0, (uint8_t)(1 << p), &t, &red);
        f = push(s, K_RUINS, p);
        f->v[0] = (uint8_t)r;
        f->v[1] = (uint8_t)strong;
    } else if (g->tile_restored[tile] == LT_STORE) {
        f = push(s, K_STORE_VISIT, p);
        f->v[0] = strong ? 2 : 0;
        s->n_bought = s->n_sold = 0;
    } else if (g->tile_restored[tile] == LT_GROVE) {
        push_with_enhancement(s, p, 0, K_HARVEST, TK_NONE, strong ? 2 : 1);
    } else {   /* restored lookout tower: a card face down, then (strong paw) the draw */
        if (strong) push_with_enhancement(s, p, 1, K_LOOKOUT_DRAW, 2, 0);
        push(s, K_FACEDOWN_OPTIONAL, p);
    }
}

static void turn_tile(const TGame* g, TState* s, int p, int restore, TSink* sink) {
    int pos = s->players[p].space;
    if (pos == TK_NONE || g->space_slot[pos] < 0) return;
    int slot = g->space_slot[pos], tile = s->tiles[slot];
    if (tile == TK_NONE) return;
    int ruins = g->tile_type[tile] == LT_RUINS;
    int target = restore == ruins;   /* verb == ("restore" if ruins else "ruin") */
    if (s->flipped[slot] == target) return;
    s->flipped[slot] = (uint8_t)target;
    if (!(ruins && target)) return;
    int r = g->slot_ruin[slot], m = s->n_ruin[r];
    uint8_t items[TK_RUIN_ITEMS];
    memcpy(items, s->ruin_items[r], (size_t)m);
    uint8_t sorted[TK_RUIN_ITEMS];
    memcpy(sorted, items, (size_t)m);
    for (int i = 1; i < m; i++) {
        uint8_t k = sorted[i];
        int j = i - 1;
        while (j >= 0 && g->kind_rank[sorted[j]] > g->kind_rank[k]) { sorted[j + 1] = sorted[j]; j--; }
        sorted[j + 1] = k;
    }
    TText t;
    tx_reset(&t);
    tx_str(&t, "restore:");
    tx_name(&t, g, g->str_space[pos]);
    tx_ch(&t, ':');
    for (int i = 0; i < m; i++) {
        if (i) tx_ch(&t, ',');
        tx_name(&t, g, g->str_kind[sorted[i]]);
    }
    note_public(s, sink, &t);
    for (int i = 0; i < m; i++) return_item(g, s, items[i], p);
    s->n_ruin[r] = 0;
    s->ruin_seen[r] = (uint8_t)everyone(s);
}

/* -- camping (camping.Camp.run) -------------------------------------------------------------- */
static void camp_run(const TGame* g, TState* s, int idx, TSink* sink) {
    TFrame* f = &s->stack[idx];   /* v[0] spot (TK_NONE: where the player stands), v[1] stage */
    int p = f->player;
    if (f->v[0] == TK_NONE) {
        int pos = s->players[p].space;
        f->v[0] = (uint8_t)(pos != TK_NONE && g->space_campsite[pos] >= 0 ? g->space_campsite[pos] : g->n_campsites);
    }
    int spot = f->v[0], stage = f->v[1];
    if (stage != 3) f->v[1] = (uint8_t)(stage + 1);
    if (stage == 0) {
        if (spot == g->n_campsites) { push(s, K_UNIVERSAL, p); return; }
        switch (g->campsite_bonus[spot]) {
        case CB_MORALITY: push_side(s, p, TK_NONE); break;
        case CB_STORY_FACEDOWN: push(s, K_FACEDOWN_OPTIONAL, p); break;
        case CB_TEA: gain_food(s, p, F_TEA, 1); break;
        case CB_ENCOUNTER: push(s, K_TAKE_ENCOUNTER, p); break;
        case CB_COMMON_ITEM: push_take_item(s, p, 0, TK_NONE); break;
        case CB_FIRST_PLAYER: s->first_player = (uint8_t)p; break;
        }
    } else if (stage == 1) {
        int tent = s->camp_tent[spot];
        if (tent == TK_NONE) return;
        TText t;
        tx_reset(&t);
        tx_str(&t, "tent:");
        if (spot == g->n_campsites) tx_str(&t, "universal");
        else tx_name(&t, g, g->str_space[g->campsite_space[spot]]);
        tx_ch(&t, ':');
        tx_name(&t, g, g->str_bonus[tent]);
        note_public(s, sink, &t);
        s->camp_tent[spot] = TK_NONE;
        s->camp_owner[spot] = TK_NONE;
        if (s->n_used_tents < TK_MAX_TENTS) s->used_tents[s->n_used_tents++] = (uint8_t)tent;
        tent_bonus(s, p, tent);
    } else if (stage == 2) {
        if (s->players[p].n_tents) {
            TFrame* x = push(s, K_PICK_TENT, p);
            x->v[0] = (uint8_t)spot;
        }
    } else {
        remove_frame(s, idx);
        TPlayer* me = &s->players[p];
        me->paws = (uint8_t)(g->paws - 1);
        me->strong_paw = 1;
        me->n_placed = 0;
        me->camped = 1;
    }
}

/* -- automatic steps ------------------------------------------------------------------------- */
static void setup_materialise(const TGame* g, TState* s, int i) {
    TFrame* f = push(s, g->setup_kind[i], g->setup_player[i]);
    f->v[0] = g->setup_a[i];
    f->v[1] = g->setup_b[i];
    f->v[2] = g->setup_c[i];
}

static void run_auto(const TGame* g, TState* s, TSink* sink) {
    int idx = s->depth - 1;
    TFrame* f = &s->stack[idx];
    int p = f->player;
    switch (f->kind) {
    case K_SETUP:   /* queue every set-up step: the queue frame, then its first step on top */
        pop_top(s);
        memcpy(s->one_each, g->one_each_init, sizeof s->one_each);
        s->n_one_each = (uint8_t)g->n_one_each_kinds;
        s->has_one_each = 1;
        if (g->n_setup > 1) push(s, K_SETUP_QUEUE, -1)->x = 1;
        setup_materialise(g, s, 0);
        break;
    case K_SETUP_QUEUE: {
        int i = f->x;
        if (i + 1 >= g->n_setup) pop_top(s);
        else f->x = (int16_t)(i + 1);
        setup_materialise(g, s, i);
        break;
    }
    case K_SETUP_DONE:
        pop_top(s);
        s->has_setup_pool = 0;
        s->has_one_each = 0;
        s->n_common = s->n_rare = s->n_one_each = 0;
        break;
    case K_END_TURN: {
        pop_top(s);
        uint8_t aside[TK_MAX_CARDS];
        int m = zone_list(g, s, Z_ASIDE, p, aside);
        for (int i = 0; i < m; i++) card_put(s, aside[i], Z_HAND, p, 0);
        if (hand_size(g, s, p) > g->hand_limit) push(s, K_HAND_LIMIT, p);
        break;
    }
    case K_EFFECTS: {   /* node: the effect list, v[0]: next */
        const TNode* nd = &g->nodes[f->node];
        if (f->v[0] >= nd->count) { pop_top(s); break; }
        int i = f->v[0]++, card = f->card;
        run_verb(g, s, p, card, &g->instr[nd->first + i], sink);
        break;
    }
    case K_RESOLVE: {   /* v[1] stage: 0 pay, 1 effects, 2 place */
        int card = f->card;
        if (f->v[1] == 0) {
            f->v[1] = 1;
            push_pay(g, s, p, g->card_cost[card], 0);
        } else if (f->v[1] == 1) {
            f->v[1] = 2;
            push_effects(g, s, p, card, f->v[2] ? g->card_unpaid[card] : g->card_effect[card]);
        } else {
            int owner = f->v[5], dest = f->v[3], side = f->v[4], leave = f->v[6];
            pop_top(s);
            if (dest == 0) add_to_story(g, s, owner, card, 1, -1, side == 0 ? 0 : side == 1 ? -1 : 1);
            else if (dest == 1) add_to_story(g, s, owner, card, 0, -1, 0);
            else discard_card(g, s, card);
            if (leave && on_expedition(g, s, p)) push(s, K_LEAVE_EXPEDITION, p);
        }
        break;
    }
    case K_DUEL: {      /* v[0] stake, v[1] target evil */
        int card = f->card, stake = f->v[0];
        pop_top(s);
        int targets = company_mask(s, p, f->v[1]);
        if (!targets) break;
        if (!(targets & (targets - 1))) {
            push_fight(s, p, lowest_bit(targets), card, NO_NODE, 0, 0, stake);
        } else {
            TFrame* x = push(s, K_DUEL_TARGET, p);
            x->card = (uint8_t)card;
            x->v[0] = (uint8_t)stake;
            x->v[1] = (uint8_t)targets;
        }
        break;
    }
    case K_FIGHT:
        fight_run(g, s, idx, sink);
        break;
    case K_ROLL: {      /* node: the roll argument; v[0] rolls, v[1..] roll bytes, v[5] rerolled,
                           v[6] asked */
        const TNode* arg = &g->nodes[f->node];
        if (!f->v[0]) { push_die(s, p, K_ROLL, 0, PU_ROLL); break; }
        if (!f->v[5] && arg->cost != NO_NODE && !f->v[6] && can_pay_cost(g, s, p, arg->cost)) {
            f->v[6] = 1;
            push(s, K_REROLL, p);
            break;
        }
        int face = ROLL_FACE(f->v[f->v[0]]), card = f->card;
        pop_top(s);
        int ok = arg->a < 0 ? g->dface_win[face] : g->dface_strength[face] >= arg->a;
        push_effects(g, s, p, card, ok ? arg->n1 : arg->n2);
        break;
    }
    case K_SWINDLE_ROLL: {   /* node: the swindle argument, x: fame, v[0] rolls, v[1] roll */
        int card = f->card, fame = f->x, node = f->node;
        int face = f->v[0] ? ROLL_FACE(f->v[f->v[0]]) : 0;
        pop_top(s);
        if (g->dface_strength[face] < fame) push_effects(g, s, p, card, g->nodes[node].n1);
        break;
    }
    case K_HARVEST: {   /* v[0] food (TK_NONE), v[1] tea, v[2] boost, v[3..6] foods */
        uint8_t v[12];
        memcpy(v, f->v, sizeof v);
        pop_top(s);
        if (v[0] != TK_NONE) gain_food(s, p, v[0], 1);
        if (v[1]) gain_food(s, p, F_TEA, v[1]);
        uint8_t story[TK_MAX_CARDS];
        int ns = zone_cards(g, s, Z_STORY, p, story);
        for (int i = 0; i < ns; i++)
            if (s->cards[story[i]].faceup && g->card_grove_bonus[story[i]] >= 0)
                gain_food(s, p, g->card_grove_bonus[story[i]], 1);
        for (int food = 0; food < N_FOODS; food++) if (v[3 + food]) gain_food(s, p, food, v[3 + food]);
        break;
    }
    case K_LOOKOUT_DRAW: {   /* v[0] base, v[1] boost */
        int count = f->v[0] + f->v[1];
        pop_top(s);
        uint8_t story[TK_MAX_CARDS];
        int ns = zone_cards(g, s, Z_STORY, p, story);
        for (int i = 0; i < ns; i++) if (s->cards[story[i]].faceup) count += g->card_lookout_bonus[story[i]];
        for (int i = 0; i < count; i++) push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0);
        break;
    }
    case K_TURN_TILE: {
        int restore = f->v[0];
        pop_top(s);
        turn_tile(g, s, p, restore, sink);
        break;
    }
    case K_USE_LOCATION: {   /* v[0] slot, v[1] strong */
        int slot = f->v[0], strong = f->v[1];
        pop_top(s);
        use_location(g, s, p, slot, strong, sink);
        break;
    }
    case K_EMBARK: {    /* v[0] area, v[1] strong */
        int area = f->v[0], strong = f->v[1];
        pop_top(s);
        if (deck_size(g, s, DECK_EXP0 + area) == 0) { push(s, K_EXHAUSTED, p); break; }
        TFrame* x = push(s, K_EXPEDITION, p);
        x->v[0] = (uint8_t)area;
        x->v[1] = (uint8_t)(strong + (g->kind_compass >= 0 && carries(&s->players[p], g->kind_compass)));
        break;
    }
    case K_EXPEDITION: {   /* v[0] area, v[1] redraws, v[2] asked, card: drawn */
        int d = DECK_EXP0 + f->v[0];
        if (f->card == TK_NONE) {
            if (deck_size(g, s, d) == 0) { pop_top(s); break; }
            push_draw(s, p, d, TO_PARENT, 0, 0);
            break;
        }
        if (f->v[1] > 0 && !f->v[2] && deck_size(g, s, d) > 0) {
            f->v[2] = 1;
            push(s, K_REDRAW, p);
            break;
        }
        int card = f->card;
        pop_top(s);
        push_resolve(s, p, card, 2);
        if (!playable(g, s, p, card)) {
            TFrame* r = &s->stack[s->depth - 1];
            r->v[1] = 1;   /* stage effects */
            r->v[2] = 1;   /* its unpaid list */
            r->v[3] = 2;   /* then the discard */
        }
        break;
    }
    case K_LEAVE_EXPEDITION: {
        pop_top(s);
        TPlayer* me = &s->players[p];
        int area = me->space == TK_NONE ? -1 : g->space_area[me->space];
        if (area < 0) break;
        me->space = (uint8_t)g->area_exit[area];
        reshuffle(g, s, area);
        break;
    }
    case K_CAMP:
        camp_run(g, s, idx, sink);
        break;
    default:
        pop_top(s);
        break;
    }
}

/* -- decisions and chance outcomes applied ---------------------------------------------------- */
static void apply_chance(const TGame* g, TState* s, int a) {
    TFrame f = *top_frame(s);
    pop_top(s);
    int p = f.player;
    switch (f.kind) {
    case K_DRAW: {
        int c = a - g->A_CARD, d = f.v[0], to = f.v[1];
        if (s->decks[d].top == c) {
            s->decks[d].top = TK_NONE;
            s->decks[d].viewers = 0;
            s->decks[d].viewers_set = 0;
        }
        if (to == TO_ASIDE) give_card(s, p, c);
        else if (to == TO_HAND) card_put(s, c, Z_HAND, p, 0);
        else if (to >= TO_ROW0) { s->row[to - TO_ROW0] = (uint8_t)c; card_put(s, c, Z_ROW, 0, to - TO_ROW0); }
        else if (to == TO_PARENT) {
            card_put(s, c, Z_HELD, 0, 0);
            if (s->depth) s->stack[s->depth - 1].card = (uint8_t)c;
        } else if (to == TO_STORY) {
            if (g->card_either_or_evil[c]) {   /* Lookout: the side of the player's choice */
                card_put(s, c, Z_STORY, p, g->card_column[c]);
                s->cards[c].faceup = 1;
                check_legendary(g, s, p);
                push_side(s, p, c);
            } else {
                add_to_story(g, s, p, c, 1, -1, 0);
            }
        } else {   /* to top */
            card_put(s, c, Z_TOP, d, 0);
            s->decks[d].top = (uint8_t)c;
            s->decks[d].viewers = f.v[2];
            s->decks[d].viewers_set = f.v[3];
        }
        break;
    }
    case K_DEAL_TENT: case K_BOX_TENT: {
        int b = a - g->A_TENT;
        for (int i = 0; i < s->n_box_tents; i++) {
            if (s->box_tents[i] != b) continue;
            for (int j = i; j < s->n_box_tents - 1; j++) s->box_tents[j] = s->box_tents[j + 1];
            s->n_box_tents--;
            break;
        }
        if (f.kind == K_DEAL_TENT) {
            TPlayer* me = &s->players[p];
            if (me->n_tents < TK_MAX_TENTS) me->tents[me->n_tents++] = (uint8_t)b;
        } else {
            s->camp_tent[f.v[0]] = (uint8_t)b;
            s->camp_owner[f.v[0]] = 4;
        }
        break;
    }
    case K_PLACE_TILE:
        s->tiles[f.v[0]] = (uint8_t)(a - g->A_TILE);
        s->flipped[f.v[0]] = 0;
        break;
    case K_RUIN_ITEM: {
        int k = a - g->A_ITEM, len, r = f.v[0];
        uint8_t* pool = (uint8_t*)pool_of(s, f.v[1], &len);
        uint8_t* count = f.v[1] == POOL_COMMON ? &s->n_common : f.v[1] == POOL_RARE ? &s->n_rare : &s->n_one_each;
        for (int i = 0; i < len; i++) {
            if (pool[i] != k) continue;
            for (int j = i; j < len - 1; j++) pool[j] = pool[j + 1];
            (*count)--;
            break;
        }
        if (f.v[1] == POOL_ONE_EACH) {
            for (int i = 0; i < s->n_common; i++) {
                if (s->common[i] != k) continue;
                for (int j = i; j < s->n_common - 1; j++) s->common[j] = s->common[j + 1];
                s->n_common--;
                break;
            }
        }
        if (s->n_ruin[r] < TK_RUIN_ITEMS) s->ruin_items[r][s->n_ruin[r]++] = (uint8_t)k;
        break;
    }
    case K_STOCK: {
        int k = a - g->A_ITEM, len, copies = 0, cell = f.v[0] * TK_COLS + f.v[1];
        uint8_t* pool = (uint8_t*)pool_of(s, f.v[2], &len);
        uint8_t* count = f.v[2] == POOL_COMMON ? &s->n_common : f.v[2] == POOL_RARE ? &s->n_rare : &s->n_one_each;
        int w = 0;
        for (int i = 0; i < len; i++) {
            if (pool[i] == k && (f.v[2] == POOL_COMMON || copies == 0)) { copies++; continue; }
            pool[w++] = pool[i];
        }
        *count = (uint8_t)w;
        s->store_kind[cell] = (uint8_t)k;
        s->store_count[cell] = (uint8_t)copies;
        break;
    }
    case K_DIE: {       /* v[0] parent kind, v[1] side, v[2] purpose */
        int parent = find_kind(s, f.v[0]);
        uint8_t b = ROLL_BYTE(f.v[1], f.v[2], a - g->A_DIE);
        if (parent < 0) break;
        if (f.v[0] == K_FIGHT) {
            if (s->fight.n_rolls < TK_ROLLS) s->fight.rolls[s->fight.n_rolls++] = b;
        } else {
            TFrame* x = &s->stack[parent];
            if (x->v[0] < 4) x->v[1 + x->v[0]++] = b;
        }
        break;
    }
    }
}

static void apply_decision(const TGame* g, TState* s, int a, TSink* sink) {
    int idx = s->depth - 1;
    TFrame* f = &s->stack[idx];
    int p = f->player, i;
    TPlayer* me = &s->players[p];
    int card = a - g->A_CARD;
    switch (f->kind) {
    case K_MAKE_ROOM: {
        int art = f->v[0];
        if (a == A_DONE) { pop_top(s); break; }
        int kind = a - g->A_DROP;
        remove_from_pack(me, kind);
        if (fits(g, me, art)) { pop_top(s); take_artifact(g, s, p, art); }
        return_item(g, s, kind, p);
        break;
    }
    case K_RETURN_SLOT: {
        int kind = f->v[0];
        pop_top(s);
        if (a == A_DONE) box_item(s, kind);
        else stock_add(s, a - g->A_CELL, kind);
        break;
    }
    case K_SIDE:
        pop_top(s);
        move_morality(g, s, p, a == A_YES ? -1 : 1);
        break;
    case K_PAY: {
        uint16_t units[TK_UNITS];
        int total = units_of(g, f->node, f->v[0], units), at = f->v[1], cw = f->v[2];
        const TTerm* unit = &g->terms[units[at]];
        f->v[1]++;
        if (a >= g->A_FOOD && a < g->A_FOOD + N_FOODS) {
            spend_food(s, p, a - g->A_FOOD, unit->gallery);
        } else if (a >= g->A_ITEM && a < g->A_SELL) {
            int kind = a - g->A_ITEM;
            remove_from_pack(me, kind);
            return_item(g, s, kind, p);
            f = &s->stack[idx];
        } else {
            take_from_hand(s, card);
            discard_card(g, s, card);
            if (cw > 1 && f->v[1] < total) f->v[1]++;
        }
        if (f->v[1] >= total) remove_frame(s, idx);
        break;
    }
    case K_DRAW_OFFER: {
        int count = f->v[0];
        pop_top(s);
        if (a == A_YES) for (i = 0; i < count; i++) push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0);
        break;
    }
    case K_FACEDOWN_OPTIONAL:
        pop_top(s);
        if (a == A_DONE) break;
        card_put(s, card, Z_HELD, 0, 0);
        push(s, K_PICK_COLUMN, p)->card = (uint8_t)card;
        break;
    case K_FROM_DISCARD:
        if (a == A_DONE) { pop_top(s); break; }
        s->choices[card >> 6] &= ~(1ull << (card & 63));
        give_card(s, p, card);
        if (f->v[0] <= 1) pop_top(s);
        else f->v[0]--;
        break;
    case K_GIVE: {
        int what = f->v[0], q = a - g->A_PLAYER;
        pop_top(s);
        if (what == 1) { s->players[p].food[F_TEA]--; s->players[q].food[F_TEA]++; }
        else if (what == 0) push_pick_food(s, p, 1, q);
        else push_pick_card(s, p, 2, q);
        break;
    }
    case K_PICK_CARD: {
        int purpose = f->v[0], to = f->v[1];
        pop_top(s);
        take_from_hand(s, card);
        if (purpose == 0) add_to_story(g, s, p, card, 1, -1, 0);
        else if (purpose == 1) { card_put(s, card, Z_HELD, 0, 0); push(s, K_PICK_COLUMN, p)->card = (uint8_t)card; }
        else give_card(s, to, card);
        break;
    }
    case K_PICK_COLUMN: {
        int c = f->card;
        pop_top(s);
        add_to_story(g, s, p, c, 0, a - g->A_COLUMN, 0);
        break;
    }
    case K_PICK_FOOD: {
        int purpose = f->v[0], to = f->v[1], food = a - g->A_FOOD;
        pop_top(s);
        if (purpose == 0) gain_food(s, p, food, 1);
        else { s->players[p].food[food]--; s->players[to].food[food]++; }
        break;
    }
    case K_TAKE_ENCOUNTER: {
        int slot = a - g->A_OPTION, c = s->row[slot];
        pop_top(s);
        s->row[slot] = TK_NONE;
        give_card(s, p, c);
        push_draw(s, p, DECK_ENCOUNTERS, TO_ROW0 + slot, 0, 0);
        break;
    }
    case K_TAKE_ITEM:
        if (a >= g->A_DROP) { drop_item(g, s, p, a - g->A_DROP); break; }
        pop_top(s);
        if (a == A_DONE) break;
        {
            int kind = a - g->A_ITEM, cell = cell_of(s, kind);
            if (cell >= 0) s->store_count[cell]--;
            add_to_pack(me, kind);
        }
        break;
    case K_START_SPACE:
        pop_top(s);
        me->space = (uint8_t)(a - g->A_SPACE);
        break;
    case K_HAND_LIMIT:
        take_from_hand(s, card);
        discard_card(g, s, card);
        if (hand_size(g, s, p) <= g->hand_limit) pop_top(s);
        break;
    case K_HELP: case K_UNIVERSAL:
        pop_top(s);
        if (a == g->A_CARD) push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0);
        else gain_food(s, p, a - g->A_FOOD, 1);
        break;
    case K_MOVE:
        if (a == A_DONE) { pop_top(s); break; }
        if (a == A_TOKEN) { me->tent_symbols[TS_MOVE]--; f->v[1]++; break; }
        if (a >= g->A_CARD && a < g->A_DROP) {
            take_from_hand(s, card);
            discard_card(g, s, card);
            f->v[2]++;
            f->v[1] = (uint8_t)(f->v[1] + g->card_enhance[card][ENH_MOVE]);
            break;
        }
        pop_top(s);
        me->space = (uint8_t)(a - g->A_SPACE);
        if (g->space_area[me->space] >= 0 && has_cartographer(g, s, p)) push_advance(s, p, 0, 1);
        break;
    case K_NEW_DAY:
        pop_top(s);
        if (a != A_YES) break;
        {
            int layer = -1;
            for (i = 0; i < g->row_size; i++) {
                if (s->row[i] == TK_NONE) continue;
                if (layer < 0) layer = new_layer(g, s, DECK_ENCOUNTERS);
                card_put(s, s->row[i], Z_DECK, DECK_ENCOUNTERS, layer);
                s->row[i] = TK_NONE;
            }
            for (i = g->row_size - 1; i >= 0; i--) push_draw(s, p, DECK_ENCOUNTERS, TO_ROW0 + i, 0, 0);
        }
        break;
    case K_TURN: {      /* v[0] bits: 1 deed_played, 2 moved, 4 paw_used, 8 at_start, 16 ended */
        if (a == A_END_TURN) { pop_top(s); push(s, K_END_TURN, p); break; }
        f->v[0] &= (uint8_t)~8;
        if (a == A_LEAVE) push(s, K_LEAVE_EXPEDITION, p);
        else if (a == A_MOVE) {
            f->v[0] |= 2;
            TFrame* m = push(s, K_MOVE, p);
            m->v[0] = (uint8_t)move_budget(g, s, p);
        } else if (a == A_CAMP) {
            f->v[0] |= 4 | 16;
            push(s, K_CAMP, p)->v[0] = TK_NONE;
        } else if (a == A_ELIXIR) {
            remove_from_pack(me, g->kind_elixir);
            box_artifact(s, g->kind_elixir);
            push_pick_card(s, p, 0, -1);
        } else if (a >= g->A_CARD && a < g->A_DROP) {
            f->v[0] |= 1;
            push_resolve(s, p, card, 0);
        } else if (a >= g->A_PAW && a < g->A_OPTION) {
            int target = (a - g->A_PAW) / 2, strong = (a - g->A_PAW) % 2;
            f->v[0] |= 4;
            if (strong) me->strong_paw = 0;
            else me->paws--;
            int pos = me->space, k = me->n_placed < TK_PAWS ? me->n_placed++ : TK_PAWS - 1;
            me->placed_strong[k] = (uint8_t)strong;
            if (target == 0) {
                me->placed_target[k] = (uint8_t)pos;
                TFrame* x = push(s, K_USE_LOCATION, p);
                x->v[0] = (uint8_t)g->space_slot[pos];
                x->v[1] = (uint8_t)strong;
            } else if (target <= 3) {
                me->placed_target[k] = PT_ENC;
                int slot = target - 1, c = s->row[slot];
                s->row[slot] = TK_NONE;
                push_draw(s, p, DECK_ENCOUNTERS, TO_ROW0 + slot, 0, 0);
                push_resolve(s, p, c, 1);
            } else if (target == 4) {
                me->placed_target[k] = PT_HELP;
                push(s, K_HELP, p);
            } else {
                int area = g->space_area[pos];
                me->placed_target[k] = (uint8_t)(PT_EXP0 + area);
                TFrame* x = push(s, K_EMBARK, p);
                x->v[0] = (uint8_t)area;
                x->v[1] = (uint8_t)strong;
            }
        } else if (a >= g->A_DROP) {
            drop_item(g, s, p, a - g->A_DROP);
        }
        break;
    }
    case K_CHOOSE: {
        const TOption* o = &g->options[g->nodes[f->node].first + (a - g->A_OPTION)];
        int c = f->card;
        pop_top(s);
        if (o->morality) {
            int r = find_resolve(s, c);
            if (r >= 0) s->stack[r].v[4] = o->morality;
        }
        push_effects(g, s, p, c, o->effect);
        push_pay(g, s, p, o->cost, 0);
        break;
    }
    case K_COLLAPSE: {
        int sp = a - g->A_SPACE;
        pop_top(s);
        if (!bit_get(s->tunnel_open, sp) && !bit_get(s->tunnel_collapsed, sp)) s->tunnel_tokens--;
        bit_set(s->tunnel_open, sp, 0);
        bit_set(s->tunnel_collapsed, sp, 1);
        break;
    }
    case K_FLIP_CHOICE:
        pop_top(s);
        push(s, K_TURN_TILE, p)->v[0] = a == A_YES;
        break;
    case K_OFFER: {
        int owner = f->v[0], c = f->card, node = f->node;
        pop_top(s);
        if (a != A_YES) break;
        push_effects(g, s, owner, c, g->nodes[node].n2);
        push_effects(g, s, p, c, g->nodes[node].n1);
        push_pay(g, s, p, g->nodes[node].cost, 0);
        break;
    }
    case K_DUEL_TARGET: {
        int c = f->card, stake = f->v[0];
        pop_top(s);
        push_fight(s, p, a - g->A_PLAYER, c, NO_NODE, 0, 0, stake);
        break;
    }
    case K_FIGHT_CARDS: {
        int side = f->v[0];
        if (a == A_DONE) { pop_top(s); break; }
        card_put(s, card, Z_FIGHT, side, 0);
        if (s->fight.n_down[side] < 2) s->fight.down[side][s->fight.n_down[side]++] = (uint8_t)card;
        break;
    }
    case K_FIGHT_DISCARD: {
        int side = f->v[0];
        if (a == A_DONE) { pop_top(s); break; }
        if (a == A_TOKEN) {
            me->tent_symbols[TS_STRENGTH]--;
            s->fight.discard[side]++;
            f->v[2] = 1;
            break;
        }
        take_from_hand(s, card);
        discard_card(g, s, card);
        s->fight.discard[side] += g->card_strength_discard[card];
        f->v[1]++;
        break;
    }
    case K_FIGHT_WEAPON: {
        int side = f->v[0];
        pop_top(s);
        if (a != A_DONE) s->fight.weapons[side] = (uint8_t)(a - g->A_ITEM);
        break;
    }
    case K_REROLL: {
        pop_top(s);
        if (a != A_YES) break;
        int r = find_kind(s, K_ROLL);
        if (r < 0) break;
        TFrame* roll = &s->stack[r];
        roll->v[5] = 1;
        roll->v[0] = 0;
        push_pay(g, s, p, g->nodes[roll->node].cost, 0);
        break;
    }
    case K_SWINDLE: {   /* node: the swindle argument, x: fame */
        if (a != A_DONE) {
            take_from_hand(s, card);
            card_put(s, card, Z_SWINDLE, 0, 0);
            if (s->n_swindle < TK_SWINDLE) s->swindle[s->n_swindle++] = (uint8_t)card;
            f->x = (int16_t)(f->x + g->card_fame[card]);
            break;
        }
        int c = f->card, node = f->node, fame = f->x;
        pop_top(s);
        TText t;
        tx_reset(&t);
        tx_str(&t, "reveal:swindle:");
        for (i = 0; i < s->n_swindle; i++) {
            if (i) tx_ch(&t, ',');
            tx_name(&t, g, g->str_card[s->swindle[i]]);
        }
        note_public(s, sink, &t);
        for (i = 0; i < s->n_swindle; i++) discard_card(g, s, s->swindle[i]);
        s->n_swindle = 0;
        TFrame* x = push(s, K_SWINDLE_ROLL, p);
        x->card = (uint8_t)c;
        x->node = (uint16_t)node;
        x->x = (int16_t)fame;
        push_die(s, p, K_SWINDLE_ROLL, 0, PU_SWINDLE);
        break;
    }
    case K_ENHANCE: {   /* v[0] kind, v[1] into, v[2] cards, v[3] token, v[4] boost, v[5..8] foods */
        if (a == A_DONE) {
            uint8_t v[12];
            memcpy(v, f->v, sizeof v);
            pop_top(s);
            int target = find_kind(s, v[1]);
            if (target < 0) break;
            TFrame* x = &s->stack[target];
            if (v[1] == K_HARVEST) {
                x->v[2] = (uint8_t)(x->v[2] + v[4]);
                for (i = 0; i < N_FOODS; i++) x->v[3 + i] = (uint8_t)(x->v[3 + i] + v[5 + i]);
            } else if (v[1] == K_LOOKOUT_DRAW) {
                x->v[1] = (uint8_t)(x->v[1] + v[4]);
            } else {
                x->v[0] = (uint8_t)(x->v[0] + v[4]);
            }
            break;
        }
        if (a == A_TOKEN) {
            me->tent_symbols[f->v[0] == 1 ? TS_CARD_DRAW : TS_TRADE]--;
            f->v[4]++;
            f->v[3] = 1;
            break;
        }
        take_from_hand(s, card);
        discard_card(g, s, card);
        f->v[2]++;
        const uint8_t* e = g->card_enhance[card];
        for (i = 0; i < N_FOODS; i++) f->v[5 + i] = (uint8_t)(f->v[5 + i] + e[ENH_RASPBERRY + i]);
        f->v[4] = (uint8_t)(f->v[4] + e[ENH_MOVE] + e[ENH_STRENGTH] + e[ENH_TRADE] + e[ENH_CARD]);
        break;
    }
    case K_EXCHANGE: {
        int food = f->v[0];
        pop_top(s);
        if (a != A_YES) break;
        me->food[food]--;
        s->tray[food]++;
        gain_food(s, p, F_TEA, 1);
        break;
    }
    case K_RUINS: {     /* v[0] ruins, v[1] strong, v[2] stage */
        if (a == A_DONE) { pop_top(s); break; }
        if (a >= g->A_DROP) { drop_item(g, s, p, a - g->A_DROP); break; }
        int kind = a - g->A_ITEM, r = f->v[0], stage = f->v[2];
        for (i = 0; i < s->n_ruin[r]; i++) {
            if (s->ruin_items[r][i] != kind) continue;
            for (int j = i; j < s->n_ruin[r] - 1; j++) s->ruin_items[r][j] = s->ruin_items[r][j + 1];
            s->n_ruin[r]--;
            break;
        }
        add_to_pack(me, kind);
        if (stage == 0 && f->v[1]) f->v[2] = 1;
        else pop_top(s);
        push_pay(g, s, p, stage == 0 ? g->cost_food1 : g->cost_tea1, 0);
        break;
    }
    case K_RUINED_STORE_SALE: {   /* v[0] mode: 0 common_item, 1 two_tea, 2 two_food_two_cards */
        int mode = f->v[0];
        pop_top(s);
        if (a == A_DONE) break;
        if (mode == 0) push_take_item(s, p, 0, a - g->A_SELL);   /* "another": not the kind placed */
        else if (mode == 1) gain_food(s, p, F_TEA, 2);
        else
            for (i = 0; i < 2; i++) {
                push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0);
                push_pick_food(s, p, 0, TK_NONE);
            }
        sell(g, s, p, a - g->A_SELL, 0);
        break;
    }
    case K_SALE_SLOT: {
        int kind = f->v[0], paid = f->v[1], cell = a - g->A_CELL;
        pop_top(s);
        stock_add(s, cell, kind);
        if (paid) earn(g, s, p, cell);
        break;
    }
    case K_STORE_VISIT: {
        int cw = f->v[0];
        if (a == A_DONE) {
            pop_top(s);
            TFrame* x = push(s, K_TRADING_BONUS, p);
            x->x = (int16_t)trade_symbols(g, s, p);
            x = push(s, K_ENHANCE, p);
            x->v[0] = 2;
            x->v[1] = K_TRADING_BONUS;
            break;
        }
        if (a >= g->A_DROP) { drop_item(g, s, p, a - g->A_DROP); break; }
        if (a < g->A_SELL) {
            int kind = a - g->A_ITEM, cell = cell_of(s, kind);
            if (cell >= 0) s->store_count[cell]--;
            add_to_pack(me, kind);
            if (s->n_bought < TK_BOUGHT) s->bought[s->n_bought++] = (uint8_t)kind;
            if (cell >= 0) push_pay(g, s, p, g->cell_cost[cell], cw);
            break;
        }
        int kind = a - g->A_SELL;
        if (g->kind_artifact[kind]) {
            remove_from_pack(me, kind);
            if (me->n_gallery < TK_GALLERY) me->gallery[me->n_gallery++] = (uint8_t)kind;
            if (g->kind_large[kind]) gain_food(s, p, F_TEA, 1);
            else push_pick_food(s, p, 0, TK_NONE);
        } else {
            if (s->n_sold < TK_SOLD) s->sold[s->n_sold++] = (uint8_t)kind;
            sell(g, s, p, kind, 1);
        }
        break;
    }
    case K_TRADING_BONUS: {
        static const int COST[3] = {2, 3, 4};
        if (a == A_DONE) { pop_top(s); break; }
        int b = a - g->A_BONUS;
        f->x = (int16_t)(f->x - COST[b]);
        if (b == 0) push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0);
        else if (b == 1) push_pick_food(s, p, 0, TK_NONE);
        else gain_food(s, p, F_TEA, 1);
        break;
    }
    case K_ADVANCE: {   /* v[0] line, v[1] steps, v[2] optional */
        if (a == A_DONE) { pop_top(s); break; }
        int target = a - g->A_SPACE, line = f->v[0], cost = NO_NODE;
        for (i = 0; i < g->n_paths; i++) {
            const TPath* path = &g->paths[i];
            if (path->from == me->space && (!line || path->line == line) && path->to == target) { cost = path->cost; break; }
        }
        me->space = (uint8_t)target;
        f->v[1]--;
        f->v[2] = 1;
        if ((int8_t)f->v[1] <= 0) pop_top(s);
        if (g->space_finish[target]) push(s, K_FINISH, p);
        push_pay(g, s, p, cost, 0);
        break;
    }
    case K_EXHAUSTED:
        pop_top(s);
        if (a != A_YES) break;
        push_advance(s, p, 0, 1);
        push_pay(g, s, p, g->cost_food2, 0);
        break;
    case K_FINISH:
        pop_top(s);
        if (a == A_YES) finish_expedition(g, s, p, me->space, 1);
        break;
    case K_FLAG: {
        int sp = a - g->A_SPACE;
        pop_top(s);
        me->flags[g->space_area[sp]] = (uint8_t)sp;
        break;
    }
    case K_REDRAW: {
        pop_top(s);
        int e = find_kind(s, K_EXPEDITION);
        if (e < 0 || a != A_YES) break;
        TFrame* x = &s->stack[e];
        if (x->card != TK_NONE) discard_card(g, s, x->card);
        x->card = TK_NONE;
        x->v[1]--;
        x->v[2] = 0;
        break;
    }
    case K_GIFT_TENT: {
        int sp = a - g->A_SPACE;
        pop_top(s);
        push(s, K_BOX_TENT, p)->v[0] = (uint8_t)g->space_campsite[sp];
        break;
    }
    case K_PICK_TENT: {
        int spot = f->v[0], b = a - g->A_TENT;
        pop_top(s);
        for (i = 0; i < me->n_tents; i++) {
            if (me->tents[i] != b) continue;
            for (int j = i; j < me->n_tents - 1; j++) me->tents[j] = me->tents[j + 1];
            me->n_tents--;
            break;
        }
        s->camp_tent[spot] = (uint8_t)b;
        s->camp_owner[spot] = (uint8_t)p;
        break;
    }
    }
}

/* -- the turn order (turns.next_turn) -------------------------------------------------------- */
TK_INLINE int active(const TState* s, int p) {
    const TPlayer* me = &s->players[p];
    return !me->camped && (me->paws > 0 || me->strong_paw || me->n_tents);
}

static void next_turn(TState* s) {
    int n = s->player_count;
    for (int i = 0; i < n; i++) {
        int p = s->turn_player == TK_NONE ? (s->first_player + i) % n : (s->turn_player + 1 + i) % n;
        if (active(s, p)) {
            s->turn_player = (uint8_t)p;
            push(s, K_TURN, p)->v[0] = 8;
            return;
        }
    }
    int any = 0;
    for (int q = 0; q < n; q++) {
        const TPlayer* me = &s->players[q];
        any |= me->paws || me->strong_paw || me->n_tents;
    }
    if (!any) {
        s->game_over = 1;
        s->turn_player = TK_NONE;
        return;
    }
    s->day++;
    s->turn_player = TK_NONE;
    for (int q = 0; q < n; q++) s->players[q].camped = 0;
    push(s, K_NEW_DAY, s->first_player);
}

/* Whether decision frame f has a legal action: at once for the kinds that always offer one
 * (``done``, a fixed choice, a turn with its paw or camping still to come), else by listing them. */
TK_INLINE int has_legal(const TGame* g, const TState* s, const TFrame* f, int* buf) {
    switch (f->kind) {
    case K_SIDE: case K_DRAW_OFFER: case K_NEW_DAY: case K_FLIP_CHOICE: case K_REROLL:
    case K_REDRAW: case K_FACEDOWN_OPTIONAL: case K_FROM_DISCARD: case K_TAKE_ITEM: case K_MOVE:
    case K_OFFER: case K_FIGHT_CARDS: case K_FIGHT_DISCARD: case K_FIGHT_WEAPON: case K_SWINDLE:
    case K_ENHANCE: case K_EXCHANGE: case K_RUINS: case K_RUINED_STORE_SALE: case K_STORE_VISIT:
    case K_TRADING_BONUS: case K_EXHAUSTED: case K_HELP: case K_UNIVERSAL: case K_PICK_COLUMN:
    case K_RETURN_SLOT:
        return 1;
    case K_TURN: {
        const TPlayer* me = &s->players[f->player];
        if ((f->v[0] & 4) || me->paws || me->strong_paw || me->n_tents) return 1;
        break;
    }
    }
    return legal_of(g, s, f, buf) > 0;
}

/* -- settling: automatic steps run, empty decisions and chance nodes are passed over --------- */
static void settle(const TGame* g, TState* s, TSink* sink) {
    int acts[TK_MAX_CARDS * 4];
    double probs[TK_MAX_CARDS * 2];
    for (int guard = 0; guard < 100000; guard++) {
        TFrame* f = top_frame(s);
        if (!f) {
            if (s->game_over) return;
            next_turn(s);
            continue;
        }
        int type = KIND_TYPE[f->kind];
        if (type == KT_AUTO) { run_auto(g, s, sink); continue; }
        if (type == KT_CHANCE) {
            if (f->kind == K_DRAW && f->v[0] == DECK_DEEDS) refill_deeds(g, s);
            if (outcomes_of(g, s, f, acts, probs)) return;
            pop_top(s);
            continue;
        }
        if (has_legal(g, s, f, acts)) return;
        pop_top(s);
    }
}

/* -- the history entry of an action, and who knows where cards lie after it ------------------- */
typedef struct { int pub; uint8_t mask; } TSeen;

static TSeen action_entry(const TGame* g, const TState* s, const TFrame* f, int actor, int a,
                          TText* text, TText* red) {
    TSeen seen = {1, 0};
    tx_reset(text);
    if (actor < 0) tx_ch(text, 'c');
    else tx_int(text, actor);
    tx_ch(text, ':');
    tx_name(text, g, g->str_kindname[f->kind]);
    tx_ch(text, ':');
    tx_copy(red, text);
    tx_int(text, a);
    tx_ch(red, '?');
    int is_card = a >= g->A_CARD && a < g->A_CARD + g->n_cards;
    if (actor < 0) {
        if (f->kind == K_DRAW) {
            int to = f->v[1];
            if (to == TO_ASIDE || to == TO_HAND) {
                tx_int(red, f->player);
                seen.pub = 0;
                seen.mask = (uint8_t)(1 << f->player);
            } else if (to == TO_TOP && popcount8(f->v[2]) < s->player_count) {
                seen.pub = 0;
                seen.mask = f->v[2];
            }
        } else if (f->kind == K_DEAL_TENT) {
            tx_int(red, f->player);
            seen.pub = 0;
            seen.mask = (uint8_t)(1 << f->player);
        } else if (f->kind == K_RUIN_ITEM || f->kind == K_BOX_TENT) {
            tx_copy(text, red);
            seen.pub = 0;
            seen.mask = 0;
        }
        return seen;
    }
    if ((f->kind == K_FIGHT_CARDS || f->kind == K_SWINDLE || f->kind == K_FACEDOWN_OPTIONAL) && is_card) {
        seen.pub = 0;
        seen.mask = (uint8_t)(1 << actor);
    } else if (f->kind == K_PICK_CARD && f->v[0] == 1) {
        seen.pub = 0;
        seen.mask = (uint8_t)(1 << actor);
    } else if (f->kind == K_PICK_CARD && f->v[0] == 2) {
        seen.pub = 0;
        seen.mask = (uint8_t)((1 << actor) | (1 << f->v[1]));
    } else if (f->kind == K_PICK_TENT) {
        seen.pub = 0;
        seen.mask = (uint8_t)(1 << actor);
    }
    return seen;
}

static void track(const TGame* g, TState* s, const TFrame* f, int actor, int a, TSeen seen,
                  int top_viewers) {
    int index = a - g->A_CARD;
    if (index < 0 || index >= g->n_cards || f->kind == K_HELP || f->kind == K_UNIVERSAL) return;
    if (top_viewers && !seen.pub) seen.mask |= (uint8_t)top_viewers;
    know1(g, s, index, seen.pub ? (uint8_t)everyone(s) : seen.mask);
    if (seen.pub) return;
    uint8_t rest[TK_MAX_CARDS];
    if (f->kind == K_DRAW) {   /* the rest of the deck, in its layers' order, then its top */
        int d = f->v[0], m = deck_cards_ordered(g, s, d, rest);
        for (int i = 0; i < m; i++) forget1(g, s, rest[i], seen.mask);
        if (s->decks[d].top != TK_NONE) forget1(g, s, s->decks[d].top, seen.mask);
    } else if (actor >= 0) {   /* the actor's hand, in its order */
        int m = zone_list(g, s, Z_HAND, actor, rest);
        for (int i = 0; i < m; i++) forget1(g, s, rest[i], seen.mask);
    }
}

TK_INLINE int current_player(const TState* s) {
    if (!s->depth) return TK_TERMINAL;
    const TFrame* f = &s->stack[s->depth - 1];
    if (KIND_TYPE[f->kind] == KT_CHANCE) return TK_CHANCE;
    return f->player;
}

/* The whole transition: the entry, the step, the record, then settle. */
static void apply_action(const TGame* g, TState* s, int a, TSink* sink) {
    TFrame f = *top_frame(s);
    int actor = current_player(s);
    TText text, red;
    TSeen seen = action_entry(g, s, &f, actor, a, &text, &red);
    hist_add(s, sink, seen.pub, seen.mask, &text, &red);
    int top_viewers = 0;
    if (f.kind == K_DRAW && s->decks[f.v[0]].top != TK_NONE) top_viewers = s->decks[f.v[0]].viewers;
    if (actor == TK_CHANCE) apply_chance(g, s, a);
    else apply_decision(g, s, a, sink);
    track(g, s, &f, actor, a, seen, top_viewers);
    settle(g, s, sink);
}

#endif
