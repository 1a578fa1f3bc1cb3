/* Every step kind of the reference (the modules registering steps, sections.py): decisions
 * (legal actions, apply), chance nodes (outcomes, apply) and automatic steps (run); the effect
 * language's verbs; the turn order; settling the stack.
 *
 * Frame fields (TFrame.v[], node, x, card) per kind are named at each kind below; the Python face
 * (solver/games/trial/kernel_codec.py) decodes them into the reference's frames. */
#ifndef TK_STEPS_H
#define TK_STEPS_H

#include "tk_fight.h"

static const uint8_t KIND_TYPE[N_KINDS] = {
    [K_DRAW] = KT_CHANCE, [K_DEAL_TENT] = KT_CHANCE, [K_PLACE_TILE] = KT_CHANCE,
    [K_RUIN_ITEM] = KT_CHANCE, [K_STOCK] = KT_CHANCE, [K_DIE] = KT_CHANCE, [K_BOX_TENT] = KT_CHANCE,
    [K_SETUP] = KT_AUTO, [K_SETUP_DONE] = KT_AUTO, [K_END_TURN] = KT_AUTO, [K_EFFECTS] = KT_AUTO,
    [K_RESOLVE] = KT_AUTO, [K_DUEL] = KT_AUTO, [K_FIGHT] = KT_AUTO, [K_ROLL] = KT_AUTO,
    [K_SWINDLE_ROLL] = KT_AUTO, [K_HARVEST] = KT_AUTO, [K_LOOKOUT_DRAW] = KT_AUTO,
    [K_TURN_TILE] = KT_AUTO, [K_USE_LOCATION] = KT_AUTO, [K_EMBARK] = KT_AUTO,
    [K_EXPEDITION] = KT_AUTO, [K_LEAVE_EXPEDITION] = KT_AUTO, [K_CAMP] = KT_AUTO,
    [K_SETUP_QUEUE] = KT_AUTO,
};

#define OUT(a) (out[n++] = (a))

/* -- shared small pieces ------------------------------------------------------------------- */
TK_INLINE int drop_actions(const TGame* g, const TState* s, int p, int* out, int n) {
    uint64_t m = pack_kinds(&s->players[p]);
    for (int k = 0; k < g->n_kinds; k++) if ((m >> k) & 1) OUT(g->A_DROP + k);
    return n;
}

TK_INLINE int hand_actions(const TGame* g, const TState* s, int p, int* out, int n) {
    uint8_t hand[TK_MAX_CARDS];
    int m = zone_cards(g, s, Z_HAND, p, hand);
    for (int i = 0; i < m; i++) OUT(g->A_CARD + hand[i]);
    return n;
}

TK_INLINE void take_from_hand(TState* s, int c) { card_zone(s, c, Z_NONE, 0); }

TK_INLINE int sellable(const TGame* g, const TState* s, int kind) {
    return cell_of(s, kind) >= 0 || empty_cells(g, s, kind) != 0;
}

TK_INLINE int kind_common(const TGame* g, int k) { return !g->kind_artifact[k] && !g->kind_rare[k]; }

/* a frame of ``kind`` for p about ``card`` and its effect node (effects, a choice, a roll, a swindle) */
TK_INLINE TFrame* push_card_node(TState* s, int kind, int p, int card, int node) {
    TFrame* f = push(s, kind, p);
    f->card = (uint8_t)card;
    f->node = (uint16_t)node;
    return f;
}

TK_INLINE void push_effects(const TGame* g, TState* s, int p, int card, int node) {
    if (node == NO_NODE || g->nodes[node].count == 0) return;
    push_card_node(s, K_EFFECTS, p, card, node);
}

TK_INLINE void push_resolve(TState* s, int p, int card, int source) {
    TFrame* f = push(s, K_RESOLVE, p);
    f->card = (uint8_t)card;
    f->v[0] = (uint8_t)source;   /* source: 0 deed, 1 encounter, 2 expedition */
    f->v[5] = (uint8_t)p;        /* owner */
    /* v[1] stage (0 pay, 1 effects, 2 place), v[2] effects (0 effect, 1 unpaid), v[3] destination
       (0 story, 1 facedown, 2 discard), v[4] moral_side (0 none, 1 good, 2 evil), v[6] leave */
    card_zone(s, card, Z_HELD, 0);
}

TK_INLINE void push_pick_card(TState* s, int p, int purpose, int to) {
    TFrame* f = push(s, K_PICK_CARD, p);
    f->v[0] = (uint8_t)purpose;  /* 0 story_faceup, 1 story_facedown, 2 give */
    f->v[1] = (uint8_t)(to < 0 ? TK_NONE : to);
}

TK_INLINE void push_with_enhancement(TState* s, int p, int kind, int into, int a, int b) {
    TFrame* f = push(s, into, p);
    if (into == K_HARVEST) { f->v[0] = (uint8_t)a; f->v[1] = (uint8_t)b; }   /* food, tea */
    else f->v[0] = (uint8_t)a;                                               /* base */
    f = push(s, K_ENHANCE, p);
    f->v[0] = (uint8_t)kind;     /* 0 food, 1 card, 2 trade */
    f->v[1] = (uint8_t)into;
}

TK_INLINE void push_advance(TState* s, int p, int line, int steps) {
    TFrame* f = push(s, K_ADVANCE, p);
    f->v[0] = (uint8_t)line;     /* 0 any, 1 dotted, 2 dashed */
    f->v[1] = (uint8_t)steps;
    f->v[2] = 0;                 /* optional */
}

/* a frame of ``kind`` for p with one argument, ``v[0]`` */
TK_INLINE TFrame* push_arg(TState* s, int kind, int p, int arg) {
    TFrame* f = push(s, kind, p);
    f->v[0] = (uint8_t)arg;
    return f;
}

/* choices.TakeItem: v[0] rare, v[1] a kind not offered (a ruined store's sale: the kind placed) or TK_NONE */
TK_INLINE void push_take_item(TState* s, int p, int rare, int other_than) {
    push_arg(s, K_TAKE_ITEM, p, rare)->v[1] = (uint8_t)other_than;
}

/* belongings.store_kinds: whether the store holds a common item of a kind other than ``k`` */
TK_INLINE int another_common(const TGame* g, const TState* s, int k) {
    for (int i = 0; i < TK_CELLS; i++)
        if (s->store_count[i] && s->store_kind[i] != k && kind_common(g, s->store_kind[i])) return 1;
    return 0;
}

/* camping.tent_bonus */
TK_INLINE void tent_bonus(TState* s, int p, int bonus) {
    TPlayer* me = &s->players[p];
    switch (bonus) {
    case TB_CARDS: push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0); push_draw(s, p, DECK_DEEDS, TO_ASIDE, 0, 0); break;
    case TB_MORALITY: push_side(s, p, TK_NONE); break;
    case TB_RASPBERRY: gain_food(s, p, F_RASPBERRY, 1); break;
    case TB_ACORN: gain_food(s, p, F_ACORN, 1); break;
    case TB_MUSHROOM: gain_food(s, p, F_MUSHROOM, 1); break;
    case TB_TEA: gain_food(s, p, F_TEA, 1); break;
    case TB_FOOD: push_pick_food(s, p, 0, TK_NONE); break;
    case TB_MOVE: me->tent_symbols[TS_MOVE]++; break;
    case TB_TRADE: me->tent_symbols[TS_TRADE]++; break;
    case TB_STRENGTH: me->tent_symbols[TS_STRENGTH]++; break;
    case TB_CARD_DRAW: me->tent_symbols[TS_CARD_DRAW]++; break;
    default: break;
    }
}

/* store.earn: what selling onto a cell pays: its column's and row's symbols */
TK_INLINE void earn(const TGame* g, TState* s, int p, int cell) {
    int prices[2] = {g->col_price[cell % TK_COLS], g->row_price[cell / TK_COLS]};
    for (int i = 0; i < 2; i++) {
        if (prices[i] == 4) push_pick_food(s, p, 0, TK_NONE);
        else gain_food(s, p, prices[i], 1);
    }
}

/* store.sell */
TK_INLINE void sell(const TGame* g, TState* s, int p, int kind, int paid) {
    remove_from_pack(&s->players[p], kind);
    int cell = cell_of(s, kind);
    int free = cell >= 0 ? 1 << cell : empty_cells(g, s, kind);
    if (free && !(free & (free - 1))) {
        int c = lowest_bit(free);
        stock_add(s, c, kind);
        if (paid) earn(g, s, p, c);
        return;
    }
    TFrame* f = push(s, K_SALE_SLOT, p);
    f->v[0] = (uint8_t)kind;
    f->v[1] = (uint8_t)paid;
    f->node = (uint16_t)free;   /* the cells offered */
}

/* expeditions.reshuffle: the area's cards in one layer (layers, discard, top, in that order) */
TK_INLINE void reshuffle(const TGame* g, TState* s, int area) {
    int d = DECK_EXP0 + area;
    uint8_t cards[TK_MAX_CARDS], pile[TK_MAX_CARDS];
    int n = deck_cards_ordered(g, s, d, cards);
    int m = zone_list(g, s, Z_DISCARD, d, pile);
    for (int i = 0; i < m; i++) cards[n++] = pile[i];
    if (s->decks[d].top != TK_NONE) cards[n++] = s->decks[d].top;
    s->decks[d].top = TK_NONE;
    s->decks[d].viewers = 0;
    s->decks[d].viewers_set = 0;
    s->decks[d].next_layer = 0;
    if (!n) return;
    int layer = new_layer(g, s, d);
    for (int i = 0; i < n; i++) card_put(s, cards[i], Z_DECK, d, layer);
}

/* expeditions.finish */
TK_INLINE void finish_expedition(const TGame* g, TState* s, int p, int space, int resource) {
    int area = g->space_area[space];
    TPlayer* me = &s->players[p];
    me->flags[area] = (uint8_t)space;
    if (resource && g->space_resource[space] >= 0) gain_food(s, p, g->space_resource[space], 1);
    me->space = (uint8_t)g->area_exit[area];
    reshuffle(g, s, area);
    for (int i = s->depth - 1; i >= 0; i--)
        if (s->stack[i].kind == K_ADVANCE && s->stack[i].player == p) remove_frame(s, i);
    int t = find_kind(s, K_TURN);
    if (t >= 0 && s->stack[t].player == p) {
        /* v[0] bits: 1 deed_played, 2 moved, 4 paw_used, 8 at_start, 16 ended */
        uint8_t* bits = &s->stack[t].v[0];
        *bits = (uint8_t)((*bits & ~16) | ((*bits & 4) ? 16 : 0));
    }
}

/* expeditions.next_finishes: finishing spaces after space, not passing another, as a bit list */
TK_INLINE int next_finishes(const TGame* g, int space, uint8_t* out) {
    uint8_t seen[TK_MAX_SPACES], queue[TK_MAX_SPACES * 4];
    memset(seen, 0, sizeof seen);
    int head = 0, tail = 0, n = 0;
    for (int i = 0; i < g->n_paths; i++) if (g->paths[i].from == space) queue[tail++] = g->paths[i].to;
    while (head < tail) {
        int x = queue[head++];
        if (seen[x]) continue;
        seen[x] = 1;
        if (g->space_finish[x]) out[n++] = (uint8_t)x;
        else
            for (int i = 0; i < g->n_paths && tail < TK_MAX_SPACES * 4; i++)
                if (g->paths[i].from == x) queue[tail++] = g->paths[i].to;
    }
    return n;
}

/* board.reachable: the spaces a move of at most budget steps can end on, as flags in out */
TK_INLINE void reachable(const TGame* g, const TState* s, int origin, int budget, uint8_t* reach) {
    int dist[TK_MAX_SPACES];
    uint8_t queue[TK_MAX_SPACES];
    for (int i = 0; i < g->n_spaces; i++) dist[i] = -1;
    memset(reach, 0, (size_t)g->n_spaces);
    uint8_t tunnels[TK_MAX_SPACES];
    int nt = 0;
    for (int t = 0; t < g->n_spaces; t++) if (tunnel_is_open(g, s, t)) tunnels[nt++] = (uint8_t)t;
    int head = 0, tail = 0;
    dist[origin] = 0;
    queue[tail++] = (uint8_t)origin;
    while (head < tail) {
        int here = queue[head++];
        if (dist[here] >= budget) continue;
        if (here != origin && g->space_area[here] >= 0) continue;
        uint8_t steps[TK_MAX_SPACES * 2];
        int ns = 0;
        for (int i = g->adj_first[here]; i < g->adj_first[here + 1]; i++) steps[ns++] = g->adj[i];
        if (tunnel_is_open(g, s, here))
            for (int t = 0; t < nt; t++)
                if (tunnels[t] != here && ns < TK_MAX_SPACES * 2) steps[ns++] = tunnels[t];
        for (int a = 0; a < g->n_areas; a++) if (g->area_exit[a] == here) steps[ns++] = (uint8_t)g->area_start[a];
        for (int i = 0; i < ns; i++) {
            int nxt = steps[i];
            int area = g->space_area[nxt];
            if (dist[nxt] < 0 && (area < 0 || g->area_start[area] == nxt)) {
                dist[nxt] = dist[here] + 1;
                queue[tail++] = (uint8_t)nxt;
            }
        }
    }
    for (int i = 0; i < g->n_spaces; i++) reach[i] = i != origin && dist[i] >= 0;
}

/* -- the effect language's verbs (cards.VERBS) ----------------------------------------------- */
typedef struct { TFrame f[64]; int n; } TSteps;

TK_INLINE void steps_add(TSteps* st, const TFrame* f, int times) {
    for (int i = 0; i < times && st->n < 64; i++) st->f[st->n++] = *f;
}

/* Push steps so that they run in the order given. */
TK_INLINE void push_in_order(TState* s, const TSteps* st) {
    for (int i = st->n - 1; i >= 0; i--) push_frame(s, &st->f[i]);
}

/* cards._gains for player p: foods at once, the steps the rest needs */
TK_INLINE void gains_for(const TGame* g, TState* s, int p, const TInstr* in, TSteps* st) {
    for (int i = 0; i < in->n_gains; i++) {
        int key = g->gain_key[in->gains + i], n = g->gain_n[in->gains + i];
        if (key < N_FOODS) gain_food(s, p, key, n);
        else if (key == G_FOOD) {
            TFrame f = frame_of(K_PICK_FOOD, p);
            f.v[1] = TK_NONE;
            steps_add(st, &f, n);
        } else {
            TFrame f = frame_of(K_DRAW, p);
            f.v[0] = DECK_DEEDS;
            f.v[1] = TO_ASIDE;
            steps_add(st, &f, n);
        }
    }
}

TK_INLINE void verb_reveal_tops(const TGame* g, TState* s, int p, TSink* sink) {
    for (int a = 0; a < g->n_areas; a++) {
        TDeck* d = &s->decks[DECK_EXP0 + a];
        if (d->top != TK_NONE) {
            d->viewers = (uint8_t)everyone(s);
            d->viewers_set = 1;
            TText t;
            tx_reset(&t);
            tx_str(&t, "top:");
            tx_name(&t, g, g->str_area[a]);
            tx_ch(&t, ':');
            tx_name(&t, g, g->str_card[d->top]);
            note_public(s, sink, &t);
        } else if (zone_count(g, s, Z_DECK, DECK_EXP0 + a)) {
            push_draw(s, p, DECK_EXP0 + a, TO_TOP, everyone(s), 1);
        }
    }
}

TK_INLINE void verb_peek(const TGame* g, TState* s, int p, int card, TSink* sink) {
    int area = g->card_deck[card] >= DECK_EXP0 ? g->card_deck[card] - DECK_EXP0 : -1;
    if (area < 0 && s->players[p].space != TK_NONE) area = g->space_area[s->players[p].space];
    if (area < 0) return;
    TDeck* d = &s->decks[DECK_EXP0 + area];
    if (d->top != TK_NONE) {
        if (!((d->viewers >> p) & 1)) {
            d->viewers |= (uint8_t)(1 << p);
            d->viewers_set = 1;
            TText t, r;
            tx_reset(&t);
            tx_str(&t, "top:");
            tx_name(&t, g, g->str_area[area]);
            tx_ch(&t, ':');
            tx_copy(&r, &t);
            tx_name(&t, g, g->str_card[d->top]);
            tx_ch(&r, '?');
            hist_add(s, sink, 0, (uint8_t)(1 << p), &t, &r);
        }
    } else if (zone_count(g, s, Z_DECK, DECK_EXP0 + area)) {
        push_draw(s, p, DECK_EXP0 + area, TO_TOP, 1 << p, 1);
    }
}

static void run_verb(const TGame* g, TState* s, int p, int card, const TInstr* in, TSink* sink) {
    TSteps st;
    st.n = 0;
    TFrame* f;
    int n = s->player_count, i;
    switch (in->verb) {
    case V_GAIN:
        gains_for(g, s, p, in, &st);
        push_in_order(s, &st);
        break;
    case V_OTHERS_GAIN:
        for (i = 1; i < n; i++) gains_for(g, s, (p + i) % n, in, &st);
        push_in_order(s, &st);
        break;
    case V_ALL_DRAW:   /* a: count, b: optional */
        for (i = 0; i < n; i++) {
            int q = (p + i) % n;
            if (in->b) {
                TFrame x = frame_of(K_DRAW_OFFER, q);
                x.v[0] = in->a;
                steps_add(&st, &x, 1);
            } else {
                TFrame x = frame_of(K_DRAW, q);
                x.v[0] = DECK_DEEDS;
                x.v[1] = TO_ASIDE;
                steps_add(&st, &x, in->a);
            }
        }
        push_in_order(s, &st);
        break;
    case V_GIVE:       /* a: 0 food, 1 tea, 2 card */
        f = push(s, K_GIVE, p);
        f->v[0] = in->a;
        f->v[1] = g->card_company[card];
        break;
    case V_MORALITY:   /* a: 0 toward good, 1 toward evil */
        move_morality(g, s, p, in->a ? 1 : -1);
        break;
    case V_FIGHT: {
        const TNode* nd = &g->nodes[in->node];
        push_fight(s, p, -1, card, in->node, nd->a, nd->b, 0);
        s->stack[s->depth - 1].node = in->node;
        break;
    }
    case V_DUEL:       /* a: stake food, b: target evil */
        f = push(s, K_DUEL, p);
        f->card = (uint8_t)card;
        f->v[0] = in->a;
        f->v[1] = in->b;
        break;
    case V_CHOOSE:
        push_card_node(s, K_CHOOSE, p, card, in->node);
        break;
    case V_RUIN: case V_RESTORE:
        push_arg(s, K_TURN_TILE, p, in->verb == V_RESTORE);
        break;
    case V_FLIP:
        push(s, K_FLIP_CHOICE, p);
        break;
    case V_DIG: {
        int pos = s->players[p].space;
        if (pos == TK_NONE || g->space_area[pos] >= 0) break;
        if (bit_get(s->tunnel_collapsed, pos)) {  /* rebuilt: a dug token turns face up */
            bit_set(s->tunnel_collapsed, pos, 0);
            if (g->space_printed_tunnel[pos]) s->tunnel_tokens++;
            else bit_set(s->tunnel_open, pos, 1);
        } else if (!g->space_printed_tunnel[pos] && !bit_get(s->tunnel_open, pos) && s->tunnel_tokens) {
            bit_set(s->tunnel_open, pos, 1);
            s->tunnel_tokens--;
        }
        break;
    }
    case V_COLLAPSE:
        push(s, K_COLLAPSE, p);
        break;
    case V_ADVANCE:    /* a: line (0 any, 1 dotted, 2 dashed, 3 none), b: steps */
        if (in->a != 3) push_advance(s, p, in->a, in->b);
        break;
    case V_ARTIFACT:   /* a: the artifact kind */
        take_artifact(g, s, p, in->a);
        break;
    case V_ITEM:
        push_take_item(s, p, 0, TK_NONE);
        break;
    case V_STORY_FROM_HAND:   /* a: 0 faceup, 1 facedown */
        push_pick_card(s, p, in->a, -1);
        break;
    case V_TAKE_DISCARD: {    /* a: look, b: take */
        uint8_t pile[TK_MAX_CARDS];
        int m = zone_list(g, s, Z_DISCARD, DECK_DEEDS, pile), from = m - in->a;
        if (from < 0) from = 0;
        s->choices[0] = s->choices[1] = 0;
        for (i = from; i < m; i++) s->choices[pile[i] >> 6] |= 1ull << (pile[i] & 63);
        f = push(s, K_FROM_DISCARD, p);
        f->v[0] = in->b;
        break;
    }
    case V_ENCOUNTER_TO_HAND:
        for (i = 0; i < in->a; i++) { TFrame x = frame_of(K_TAKE_ENCOUNTER, p); push_frame(s, &x); }
        break;
    case V_FIRST_PLAYER:
        s->first_player = (uint8_t)p;
        break;
    case V_TENT_FROM_BOX:
        push(s, K_GIFT_TENT, p);
        break;
    case V_MOVE_FLAG: case V_PLACE_FLAG:
        push_arg(s, K_FLAG, p, in->verb == V_PLACE_FLAG);
        break;
    case V_REVEAL_TOPS:
        verb_reveal_tops(g, s, p, sink);
        break;
    case V_PEEK:
        verb_peek(g, s, p, card, sink);
        break;
    case V_ROLL:
        push_card_node(s, K_ROLL, p, card, in->node);
        break;
    case V_SWINDLE:
        push_card_node(s, K_SWINDLE, p, card, in->node);
        s->n_swindle = 0;
        break;
    case V_OTHERS_MAY:
        for (i = 1; i < n; i++) {
            TFrame x = frame_of(K_OFFER, (p + i) % n);
            x.card = (uint8_t)card;
            x.node = in->node;
            x.v[0] = (uint8_t)p;
            steps_add(&st, &x, 1);
        }
        push_in_order(s, &st);
        break;
    case V_THEN: {     /* a: 0 story, 1 facedown, 2 discard */
        int r = find_resolve(s, card);
        if (r >= 0) s->stack[r].v[3] = in->a;
        break;
    }
    case V_DRAW_TO_STORY:
        for (i = 0; i < in->a; i++) push_draw(s, p, DECK_DEEDS, TO_STORY, 0, 0);
        break;
    case V_SWAP_STRONG_PAW: {
        TPlayer* me = &s->players[p];
        if (me->strong_paw || me->paws == 0) break;
        for (i = 0; i < me->n_placed; i++) {
            if (me->placed_strong[i]) {
                me->placed_strong[i] = 0;
                me->strong_paw = 1;
                me->paws--;
                break;
            }
        }
        break;
    }
    case V_LEAVE: {
        int r = find_resolve(s, card);
        if (r >= 0) s->stack[r].v[6] = 1;
        break;
    }
    }
}

/* -- decisions: legal actions ---------------------------------------------------------------- */
/* turns.paw_targets as a bit set of PAW_TARGETS indices */
TK_INLINE int paw_targets(const TGame* g, const TState* s, int p) {
    const TPlayer* me = &s->players[p];
    if (on_expedition(g, s, p)) return 1 << 5;
    int m = 1 << 4;
    int pos = me->space;
    if (pos != TK_NONE && g->space_slot[pos] >= 0 && !own_token_on(s, p, pos)) m |= 1;
    for (int t = 1; t <= 3; t++) {
        int c = s->row[t - 1];
        if (c != TK_NONE && playable(g, s, p, c)) m |= 1 << t;
    }
    return m;
}

static int legal_turn(const TGame* g, const TState* s, const TFrame* f, int* out) {
    int n = 0, p = f->player, bits = f->v[0];
    const TPlayer* me = &s->players[p];
    if ((bits & 16) && (bits & 4)) { OUT(A_END_TURN); return n; }
    if (bits & 4) OUT(A_END_TURN);
    int away = on_expedition(g, s, p);
    if ((bits & 8) && away) OUT(A_LEAVE);
    if (!(bits & 1) && !away) {
        uint8_t hand[TK_MAX_CARDS];
        int m = zone_cards(g, s, Z_HAND, p, hand);
        for (int i = 0; i < m; i++) if (playable(g, s, p, hand[i])) OUT(g->A_CARD + hand[i]);
    }
    if (!(bits & 2) && !away) OUT(A_MOVE);
    if (!(bits & 4)) {
        if (me->paws || me->strong_paw) {
            int targets = paw_targets(g, s, p);
            for (int t = 0; t < 6; t++) {
                if (!((targets >> t) & 1)) continue;
                if (me->paws) OUT(g->A_PAW + 2 * t);
                if (me->strong_paw) OUT(g->A_PAW + 2 * t + 1);
            }
        } else if (me->n_tents) {
            OUT(A_CAMP);
        }
    }
    if (g->kind_elixir >= 0 && carries(me, g->kind_elixir) && hand_size(g, s, p)) OUT(A_ELIXIR);
    return drop_actions(g, s, p, out, n);
}

static int legal_move(const TGame* g, const TState* s, const TFrame* f, int* out) {
    /* v[0] base, v[1] extra, v[2] cards discarded */
    int n = 0, p = f->player;
    const TPlayer* me = &s->players[p];
    OUT(A_DONE);
    if (f->v[2] < 2) {
        uint8_t hand[TK_MAX_CARDS];
        int m = zone_cards(g, s, Z_HAND, p, hand);
        for (int i = 0; i < m; i++) if (g->card_enhance[hand[i]][ENH_MOVE]) OUT(g->A_CARD + hand[i]);
    }
    if (me->tent_symbols[TS_MOVE]) OUT(A_TOKEN);
    if (me->space == TK_NONE) return n;
    uint8_t reach[TK_MAX_SPACES];
    reachable(g, s, me->space, f->v[0] + f->v[1], reach);
    for (int sp = 0; sp < g->n_spaces; sp++) {
        if (!reach[sp]) continue;
        int area = g->space_area[sp];
        if (area < 0 || me->flags[area] == TK_NONE) OUT(g->A_SPACE + sp);
    }
    return n;
}

/* payments: the actions paying the pay frame's next unit that leave the rest payable */
static int legal_pay(const TGame* g, const TState* s, const TFrame* f, int* out) {
    uint16_t units[TK_UNITS];
    int n = 0, p = f->player, cw = f->v[2];
    int total = units_of(g, f->node, f->v[0], units), idx = f->v[1];
    if (idx >= total) return 0;
    const uint16_t* rest = units + idx + 1;
    int nrest = total - idx - 1;
    uint64_t alts = g->terms[units[idx]].alts;
    const TPlayer* me = &s->players[p];
    TPurse w;
    int hand = hand_size(g, s, p);
    for (int food = 0; food < N_FOODS; food++) {
        if (me->food[food] <= 0 || !food_matches(alts, food)) continue;
        purse_of(g, me, &w);
        w.food[food]--;
        if (pay_search(g, &w, rest, nrest, 0, hand, cw)) OUT(g->A_FOOD + food);
    }
    if (alts & ~(ALT_FOODS | ALT_FOOD_ANY | ALT_CARD)) {
        uint64_t m = pack_kinds(me);
        for (int k = 0; k < g->n_kinds; k++) {
            if (!((m >> k) & 1) || !item_matches(g, alts, k)) continue;
            purse_of(g, me, &w);
            w.kinds[k]--;
            if (pay_search(g, &w, rest, nrest, 0, hand, cw)) OUT(g->A_ITEM + k);
        }
    }
    if (hand && ((alts & ALT_CARD) || (cw && foodlike(alts)))) {
        const uint16_t* r2 = rest;
        int n2 = nrest;
        if (cw > 1) { if (n2 > 0) { r2++; n2--; } }
        purse_of(g, me, &w);
        if (pay_search(g, &w, r2, n2, 0, hand - 1, cw)) n = hand_actions(g, s, p, out, n);
    }
    return n;
}

static int legal_store_visit(const TGame* g, const TState* s, const TFrame* f, int* out) {
    int n = 0, p = f->player, cw = f->v[0];
    const TPlayer* me = &s->players[p];
    uint64_t affordable = 0;
    int any_unfit = 0;
    OUT(A_DONE);
    for (int i = 0; i < TK_CELLS; i++) {
        if (!s->store_count[i]) continue;
        int k = s->store_kind[i], sold = 0;
        for (int j = 0; j < s->n_sold; j++) sold |= s->sold[j] == k;
        if (sold) continue;
        uint16_t units[TK_UNITS];
        int nu = units_of(g, g->cell_cost[i], 0, units);
        if (!can_pay_units(g, s, p, units, nu, cw)) continue;
        affordable |= 1ull << k;
        if (fits(g, me, k)) OUT(g->A_ITEM + k);
        else any_unfit = 1;
    }
    uint64_t carried = pack_kinds(me);
    for (int k = 0; k < g->n_kinds; k++) {
        if (!((carried >> k) & 1)) continue;
        int bought = 0;
        for (int j = 0; j < s->n_bought; j++) bought |= s->bought[j] == k;
        if (g->kind_artifact[k] || (!bought && sellable(g, s, k))) OUT(g->A_SELL + k);
    }
    (void)affordable;
    return any_unfit ? drop_actions(g, s, p, out, n) : n;
}

/* The legal actions of decision frame f (unsorted, maybe repeated); how many. */
static int legal_of(const TGame* g, const TState* s, const TFrame* f, int* out) {
    int n = 0, p = f->player, i;
    const TPlayer* me = p >= 0 ? &s->players[p] : NULL;
    switch (f->kind) {
    case K_MAKE_ROOM:   /* v[0] the artifact */
        if (artifact_available(s, f->v[0]) < 0) return 0;
        OUT(A_DONE);
        return drop_actions(g, s, p, out, n);
    case K_RETURN_SLOT: {   /* v[0] the item */
        int cell = cell_of(s, f->v[0]);
        int cells = cell >= 0 ? 1 << cell : empty_cells(g, s, f->v[0]);
        if (!cells) { OUT(A_DONE); return n; }
        for (i = 0; i < TK_CELLS; i++) if ((cells >> i) & 1) OUT(g->A_CELL + i);
        return n;
    }
    case K_SIDE: case K_DRAW_OFFER: case K_NEW_DAY: case K_FLIP_CHOICE: case K_REROLL:
    case K_REDRAW:
        OUT(A_DONE);
        OUT(A_YES);
        return n;
    case K_PAY:
        return legal_pay(g, s, f, out);
    case K_FACEDOWN_OPTIONAL:
        OUT(A_DONE);
        return hand_actions(g, s, p, out, n);
    case K_FROM_DISCARD:
        OUT(A_DONE);
        for (int w = 0; w < 2; w++)
            for (uint64_t mm = s->choices[w] & s->zmask[zslot(Z_DISCARD, DECK_DEEDS)][w]; mm; mm &= mm - 1)
                OUT(g->A_CARD + w * 64 + __builtin_ctzll(mm));
        return n;
    case K_GIVE: {      /* v[0] what (0 food, 1 tea, 2 card), v[1] company */
        int has = f->v[0] == 0 ? food_total(me) > 0 : f->v[0] == 1 ? me->food[F_TEA] > 0 : hand_size(g, s, p) > 0;
        if (!has) return 0;
        for (int q = 0; q < s->player_count; q++)
            if (q != p && (!f->v[1] || s->players[q].space == me->space)) OUT(g->A_PLAYER + q);
        return n;
    }
    case K_PICK_CARD: case K_HAND_LIMIT:
        if (f->kind == K_HAND_LIMIT && hand_size(g, s, p) <= g->hand_limit) return 0;
        return hand_actions(g, s, p, out, n);
    case K_PICK_COLUMN:
        for (i = 0; i < 4; i++) OUT(g->A_COLUMN + i);
        return n;
    case K_PICK_FOOD:   /* v[0] purpose (0 gain, 1 give), v[1] to */
        for (i = 0; i < (f->v[0] ? 4 : 3); i++)
            if (f->v[0] ? me->food[i] > 0 : s->tray[i] > 0) OUT(g->A_FOOD + i);
        return n;
    case K_TAKE_ENCOUNTER:
        for (i = 0; i < g->row_size; i++) if (s->row[i] != TK_NONE) OUT(g->A_OPTION + i);
        return n;
    case K_TAKE_ITEM: {   /* v[0] rare, v[1] a kind not offered (or TK_NONE) */
        int unfit = 0;
        OUT(A_DONE);
        for (i = 0; i < TK_CELLS; i++) {
            if (!s->store_count[i]) continue;
            int k = s->store_kind[i];
            if (k == f->v[1]) continue;
            if (g->kind_rare[k] != f->v[0] || g->kind_artifact[k]) continue;
            if (fits(g, me, k)) OUT(g->A_ITEM + k);
            else unfit = 1;
        }
        return unfit ? drop_actions(g, s, p, out, n) : n;
    }
    case K_START_SPACE:
        for (i = 0; i < g->n_starts; i++) OUT(g->A_SPACE + g->start_spaces[i]);
        return n;
    case K_HELP: case K_UNIVERSAL:
        OUT(g->A_CARD);
        for (i = 0; i < 3; i++) OUT(g->A_FOOD + i);
        return n;
    case K_MOVE:
        return legal_move(g, s, f, out);
    case K_TURN:
        return legal_turn(g, s, f, out);
    case K_CHOOSE: {
        const TNode* nd = &g->nodes[f->node];
        for (i = 0; i < nd->count; i++)
            if (option_open(g, s, p, &g->options[nd->first + i])) OUT(g->A_OPTION + i);
        return n;
    }
    case K_COLLAPSE:
        for (i = 0; i < g->n_spaces; i++) {
            if (!tunnel_is_open(g, s, i)) continue;
            int recorded = bit_get(s->tunnel_open, i) || bit_get(s->tunnel_collapsed, i);
            if (recorded || s->tunnel_tokens > 0) OUT(g->A_SPACE + i);
        }
        return n;
    case K_OFFER: {     /* node: the others_may argument, v[0] owner */
        OUT(A_DONE);
        if (can_pay_cost(g, s, p, g->nodes[f->node].cost)) OUT(A_YES);
        return n;
    }
    case K_DUEL_TARGET:   /* v[1] the targets */
        for (int q = 0; q < s->player_count; q++) if ((f->v[1] >> q) & 1) OUT(g->A_PLAYER + q);
        return n;
    case K_FIGHT_CARDS:   /* v[0] side */
        OUT(A_DONE);
        if (s->fight.n_down[f->v[0]] < 2) n = hand_actions(g, s, p, out, n);
        return n;
    case K_FIGHT_DISCARD:   /* v[0] side, v[1] cards, v[2] token */
        OUT(A_DONE);
        if (f->v[1] < 2) {
            uint8_t hand[TK_MAX_CARDS];
            int m = zone_cards(g, s, Z_HAND, p, hand);
            for (i = 0; i < m; i++) if (g->card_strength_discard[hand[i]]) OUT(g->A_CARD + hand[i]);
        }
        if (me->tent_symbols[TS_STRENGTH] && !f->v[2]) OUT(A_TOKEN);
        return n;
    case K_FIGHT_WEAPON: {
        OUT(A_DONE);
        uint64_t m = weapon_kinds(g, s, p);
        for (int k = 0; k < g->n_kinds; k++) if ((m >> k) & 1) OUT(g->A_ITEM + k);
        return n;
    }
    case K_SWINDLE:
        OUT(A_DONE);
        if (s->n_swindle < g->nodes[f->node].a) n = hand_actions(g, s, p, out, n);
        return n;
    case K_ENHANCE: {   /* v[0] kind (0 food, 1 card, 2 trade), v[1] into, v[2] cards, v[3] token */
        OUT(A_DONE);
        uint8_t hand[TK_MAX_CARDS];
        int m = f->v[2] < 2 ? zone_cards(g, s, Z_HAND, p, hand) : 0;
        for (i = 0; i < m; i++) {
                int c = hand[i];
                const uint8_t* e = g->card_enhance[c];
                int ok = f->v[0] == 0 ? (e[ENH_RASPBERRY] || e[ENH_ACORN] || e[ENH_MUSHROOM] || e[ENH_TEA])
                       : f->v[0] == 1 ? e[ENH_CARD] != 0 : e[ENH_TRADE] != 0;
                if (ok) OUT(g->A_CARD + c);
            }
        int token = f->v[0] == 1 ? TS_CARD_DRAW : f->v[0] == 2 ? TS_TRADE : -1;
        if (token >= 0 && me->tent_symbols[token] && !f->v[3]) OUT(A_TOKEN);
        return n;
    }
    case K_EXCHANGE:    /* v[0] food */
        OUT(A_DONE);
        if (me->food[f->v[0]] && s->tray[F_TEA]) OUT(A_YES);
        return n;
    case K_RUINS: {     /* v[0] ruins index, v[1] strong, v[2] stage (0 food, 1 tea) */
        int need = f->v[2] == 0 ? food_total(me) > 0 : me->food[F_TEA] > 0, unfit = 0;
        OUT(A_DONE);
        if (!need) return n;
        int r = f->v[0];
        uint64_t seen = 0;
        for (i = 0; i < s->n_ruin[r]; i++) {
            int k = s->ruin_items[r][i];
            if ((seen >> k) & 1) continue;
            seen |= 1ull << k;
            if (fits(g, me, k)) OUT(g->A_ITEM + k);
            else unfit = 1;
        }
        return unfit ? drop_actions(g, s, p, out, n) : n;
    }
    case K_RUINED_STORE_SALE: {
        OUT(A_DONE);
        uint64_t m = pack_kinds(me);
        for (int k = 0; k < g->n_kinds; k++)
            if (((m >> k) & 1) && kind_common(g, k) && sellable(g, s, k)
                && (f->v[0] != 0 || another_common(g, s, k)))   /* mode 0: "another common item" */
                OUT(g->A_SELL + k);
        return n;
    }
    case K_SALE_SLOT:   /* node: the cells */
        for (i = 0; i < TK_CELLS; i++) if ((f->node >> i) & 1) OUT(g->A_CELL + i);
        return n;
    case K_STORE_VISIT:
        return legal_store_visit(g, s, f, out);
    case K_TRADING_BONUS: {   /* x points, v[0] boost */
        int left = f->x + f->v[0];
        static const int COST[3] = {2, 3, 4};
        OUT(A_DONE);
        for (i = 0; i < 3; i++) {
            int has = i == 0 || (i == 2 ? s->tray[F_TEA] > 0 : (s->tray[0] || s->tray[1] || s->tray[2]));
            if (left >= COST[i] && has) OUT(g->A_BONUS + i);
        }
        return n;
    }
    case K_ADVANCE: {   /* v[0] line, v[1] steps, v[2] optional */
        int pos = me->space;
        if (f->v[2]) OUT(A_DONE);
        for (i = 0; i < g->n_paths; i++) {
            const TPath* path = &g->paths[i];
            if (path->from != pos || (f->v[0] && path->line != f->v[0])) continue;
            if (path->cost == NO_NODE || can_pay_cost(g, s, p, path->cost)) OUT(g->A_SPACE + path->to);
        }
        return (n == 1 && f->v[2]) ? 0 : n;
    }
    case K_EXHAUSTED:
        OUT(A_DONE);
        if (can_pay_cost(g, s, p, g->cost_food2)) OUT(A_YES);
        return n;
    case K_FINISH: {
        int pos = me->space;
        if (pos == TK_NONE || !g->space_finish[pos]) return 0;
        OUT(A_YES);
        for (i = 0; i < g->n_paths; i++) if (g->paths[i].from == pos) { OUT(A_DONE); break; }
        return n;
    }
    case K_FLAG: {      /* v[0] 0 move, 1 place */
        if (f->v[0] == 0) {
            for (int a = 0; a < g->n_areas; a++) {
                if (me->flags[a] == TK_NONE) continue;
                uint8_t fin[TK_MAX_SPACES];
                int m = next_finishes(g, me->flags[a], fin);
                for (i = 0; i < m; i++) OUT(g->A_SPACE + fin[i]);
            }
        } else {
            int here = me->space == TK_NONE ? -1 : g->space_area[me->space];
            for (int a = 0; a < g->n_areas; a++)
                if (me->flags[a] == TK_NONE && a != here) OUT(g->A_SPACE + g->area_nearest_finish[a]);
        }
        return n;
    }
    case K_GIFT_TENT:
        if (!s->n_box_tents) return 0;
        for (i = 0; i < g->n_campsites; i++) if (s->camp_tent[i] == TK_NONE) OUT(g->A_SPACE + g->campsite_space[i]);
        return n;
    case K_PICK_TENT: {
        int seen = 0;
        for (i = 0; i < me->n_tents; i++) seen |= 1 << me->tents[i];
        for (i = 0; i < TK_BONUSES; i++) if ((seen >> i) & 1) OUT(g->A_TENT + i);
        return n;
    }
    }
    return 0;
}

/* -- chance nodes: outcomes ----------------------------------------------------------------- */
TK_INLINE int pool_outcomes(const TGame* g, const uint8_t* pool, int len, int* acts, double* probs) {
    int counts[TK_MAX_KINDS] = {0}, n = 0;
    for (int i = 0; i < len; i++) counts[pool[i]]++;
    for (int k = 0; k < g->n_kinds; k++)
        if (counts[k]) { acts[n] = g->A_ITEM + k; probs[n] = (double)counts[k] / (double)len; n++; }
    return n;
}

TK_INLINE const uint8_t* pool_of(const TState* s, int pool, int* len) {
    if (pool == POOL_COMMON) { *len = s->n_common; return s->common; }
    if (pool == POOL_RARE) { *len = s->n_rare; return s->rare; }
    *len = s->n_one_each;
    return s->one_each;
}

TK_INLINE int tent_outcomes(const TGame* g, const uint8_t* tents, int len, int* acts, double* probs) {
    int counts[TK_BONUSES] = {0}, n = 0;
    for (int i = 0; i < len; i++) counts[tents[i]]++;
    for (int b = 0; b < TK_BONUSES; b++)
        if (counts[b]) { acts[n] = g->A_TENT + b; probs[n] = (double)counts[b] / (double)len; n++; }
    return n;
}

/* The outcomes of chance frame f; how many. (A deed draw refills its deck first: settle.) */
static int outcomes_of(const TGame* g, const TState* s, const TFrame* f, int* acts, double* probs) {
    int n = 0, len;
    switch (f->kind) {
    case K_DRAW: {      /* v[0] deck, v[1] to, v[2] viewers, v[3] viewers set */
        const TDeck* d = &s->decks[f->v[0]];
        if (d->top != TK_NONE) { acts[0] = g->A_CARD + d->top; probs[0] = 1.0; return 1; }
        uint8_t layer[TK_MAX_CARDS];
        int m = first_layer_cards(g, s, f->v[0], layer);
        for (int i = 0; i < m; i++) { acts[i] = g->A_CARD + layer[i]; probs[i] = 1.0 / (double)m; }
        return m;
    }
    case K_DEAL_TENT: case K_BOX_TENT:
        return s->n_box_tents ? tent_outcomes(g, s->box_tents, s->n_box_tents, acts, probs) : 0;
    case K_PLACE_TILE: {   /* v[0] the location slot */
        int type = g->slot_type[f->v[0]], left[TK_TILES], m = 0;
        for (int t = 0; t < g->n_tiles; t++) {
            if (g->tile_type[t] != type) continue;
            int placed = 0;
            for (int sl = 0; sl < TK_SLOTS; sl++) placed |= s->tiles[sl] == t;
            if (!placed) left[m++] = t;
        }
        for (int i = 0; i < m; i++) { acts[i] = g->A_TILE + left[i]; probs[i] = 1.0 / (double)m; }
        return m;
    }
    case K_RUIN_ITEM: {    /* v[0] ruins index, v[1] pool */
        const uint8_t* pool = pool_of(s, f->v[1], &len);
        return len ? pool_outcomes(g, pool, len, acts, probs) : 0;
    }
    case K_STOCK: {        /* v[0] row, v[1] column, v[2] pool */
        const uint8_t* pool = pool_of(s, f->v[2], &len);
        if (!len) return 0;
        if (f->v[2] != POOL_COMMON) return pool_outcomes(g, pool, len, acts, probs);
        uint64_t kinds = 0;
        for (int i = 0; i < len; i++) kinds |= 1ull << pool[i];
        int m = 0;
        for (int k = 0; k < g->n_kinds; k++) if ((kinds >> k) & 1) m++;
        for (int k = 0; k < g->n_kinds; k++)
            if ((kinds >> k) & 1) { acts[n] = g->A_ITEM + k; probs[n] = 1.0 / (double)m; n++; }
        return n;
    }
    case K_DIE:
        for (int j = 0; j < g->n_dfaces; j++) { acts[j] = g->A_DIE + j; probs[j] = g->dface_prob[j]; }
        return g->n_dfaces;
    }
    return 0;
}

#endif
