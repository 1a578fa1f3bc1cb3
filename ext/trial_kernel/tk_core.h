/* The core of the compiled Trial: hashing and history texts, card places, decks, the record of
 * who knows where each card lies, the step stack, and the players' belongings (the reference's
 * core.py, history.py, decks.py and belongings.py). */
#ifndef TK_CORE_H
#define TK_CORE_H

#include "tk_types.h"

#define TK_INLINE static inline

/* -- hashing --------------------------------------------------------------------------------- */
TK_INLINE uint64_t tk_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* FNV-1a over the bytes, then mixed: the hash of one history text (tk_text_hash in Python). */
TK_INLINE uint64_t tk_text_hash(const char* text, int n) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (int i = 0; i < n; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001B3ull;
    }
    return tk_mix(h ^ (uint64_t)n);
}

/* One entry folded into a history hash (order matters; h is already well mixed). */
TK_INLINE uint64_t tk_fold(uint64_t acc, uint64_t h) {
    acc ^= h;
    acc = (acc << 27) | (acc >> 37);
    return acc * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

/* -- texts ------------------------------------------------------------------------------------ */
typedef struct { char b[TK_TEXT]; int n; } TText;

TK_INLINE void tx_reset(TText* t) { t->n = 0; }
TK_INLINE void tx_copy(TText* to, const TText* from) {
    memcpy(to->b, from->b, (size_t)from->n);
    to->n = from->n;
}
TK_INLINE void tx_ch(TText* t, char c) { if (t->n < TK_TEXT) t->b[t->n++] = c; }
TK_INLINE void tx_str(TText* t, const char* s) { while (*s) tx_ch(t, *s++); }
TK_INLINE void tx_int(TText* t, long v) {
    char tmp[24];
    int k = 0;
    if (v < 0) { tx_ch(t, '-'); v = -v; }
    do { tmp[k++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (k) tx_ch(t, tmp[--k]);
}
TK_INLINE void tx_name(TText* t, const TGame* g, uint16_t off) { tx_str(t, g->chars + off); }

/* -- counts and flags ------------------------------------------------------------------------ */
TK_INLINE int everyone(const TState* s) { return (1 << s->player_count) - 1; }
TK_INLINE int popcount8(unsigned v) { int n = 0; while (v) { n += v & 1; v >>= 1; } return n; }
TK_INLINE int bit_get(const uint8_t* bits, int i) { return (bits[i >> 3] >> (i & 7)) & 1; }
TK_INLINE void bit_set(uint8_t* bits, int i, int on) {
    if (on) bits[i >> 3] |= (uint8_t)(1 << (i & 7));
    else bits[i >> 3] &= (uint8_t)~(1 << (i & 7));
}

/* -- card places ---------------------------------------------------------------------------- */
/* card c's place counter (TCard.seq) or, with ``knowledge``, its card_knowledge one (.kseq) */
TK_INLINE uint16_t* card_counter(TState* s, int c, int knowledge) {
    return knowledge ? &s->cards[c].kseq : &s->cards[c].seq;
}

/* number the cards order[0..n-1] 1..n by one of their counters, keeping the counter's order
   (a long game or many redeals make the numbers large); the counter's next value: n + 1 */
TK_INLINE uint16_t renumber_cards(TState* s, uint16_t* order, int n, int knowledge) {
    for (int i = 1; i < n; i++) {
        uint16_t c = order[i];
        int j = i - 1;
        while (j >= 0 && *card_counter(s, order[j], knowledge) > *card_counter(s, c, knowledge)) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = c;
    }
    for (int i = 0; i < n; i++) *card_counter(s, order[i], knowledge) = (uint16_t)(i + 1);
    return (uint16_t)(n + 1);
}

TK_INLINE void renumber_seq(TState* s) {
    /* keep every zone's order, make the numbers small again */
    uint16_t order[TK_MAX_CARDS];
    for (int i = 0; i < TK_MAX_CARDS; i++) order[i] = (uint16_t)i;
    s->seq = renumber_cards(s, order, TK_MAX_CARDS, 0);
}

TK_INLINE uint16_t next_seq(TState* s) {
    if (s->seq >= 60000) renumber_seq(s);
    return s->seq++;
}

/* The bit set tracking (zone, who), or -1 for a zone without one. */
TK_INLINE int zslot(int zone, int who) {
    switch (zone) {
    case Z_HAND: return who;
    case Z_ASIDE: return 4 + who;
    case Z_STORY: return 8 + who;
    case Z_DECK: return 12 + who;
    case Z_DISCARD: return 17 + who;
    default: return -1;
    }
}

/* Every change of a card's zone goes through here (the bit sets follow TCard). */
TK_INLINE void card_zone(TState* s, int c, int zone, int who) {
    TCard* k = &s->cards[c];
    uint64_t bit = 1ull << (c & 63);
    int old = zslot(k->zone, k->who);
    if (old >= 0) s->zmask[old][c >> 6] &= ~bit;
    k->zone = (uint8_t)zone;
    k->who = (uint8_t)who;
    int now = zslot(zone, who);
    if (now >= 0) s->zmask[now][c >> 6] |= bit;
}

/* Rebuild the bit sets from the cards (a state loaded field by field). */
static void tk_rebuild_masks(const TGame* g, TState* s) {
    memset(s->zmask, 0, sizeof s->zmask);
    for (int c = 0; c < g->n_cards; c++) {
        int slot = zslot(s->cards[c].zone, s->cards[c].who);
        if (slot >= 0) s->zmask[slot][c >> 6] |= 1ull << (c & 63);
    }
}

/* Move card c to (zone, who, sub), at the end of that zone's list. */
TK_INLINE void card_put(TState* s, int c, int zone, int who, int sub) {
    TCard* k = &s->cards[c];
    card_zone(s, c, zone, who);
    k->sub = (uint8_t)sub;
    k->faceup = 0;
    k->seq = next_seq(s);
}

TK_INLINE int card_in(const TState* s, int c, int zone, int who) {
    return s->cards[c].zone == zone && s->cards[c].who == who;
}

/* The cards of a tracked (zone, who), by index, into out; how many. */
TK_INLINE int zone_cards(const TGame* g, const TState* s, int zone, int who, uint8_t* out) {
    int slot = zslot(zone, who), n = 0;
    if (slot < 0) {
        for (int c = 0; c < g->n_cards; c++) if (card_in(s, c, zone, who)) out[n++] = (uint8_t)c;
        return n;
    }
    for (int w = 0; w < 2; w++)
        for (uint64_t m = s->zmask[slot][w]; m; m &= m - 1) out[n++] = (uint8_t)(w * 64 + __builtin_ctzll(m));
    return n;
}

TK_INLINE int zone_count(const TGame* g, const TState* s, int zone, int who) {
    int slot = zslot(zone, who);
    if (slot < 0) {
        int n = 0;
        for (int c = 0; c < g->n_cards; c++) n += card_in(s, c, zone, who);
        return n;
    }
    return __builtin_popcountll(s->zmask[slot][0]) + __builtin_popcountll(s->zmask[slot][1]);
}

/* The cards of (zone, who) in their list's order, into out; how many. */
TK_INLINE int zone_list(const TGame* g, const TState* s, int zone, int who, uint8_t* out) {
    int n = zone_cards(g, s, zone, who, out);
    for (int i = 1; i < n; i++) {
        uint8_t c = out[i];
        int j = i - 1;
        while (j >= 0 && s->cards[out[j]].seq > s->cards[c].seq) { out[j + 1] = out[j]; j--; }
        out[j + 1] = c;
    }
    return n;
}

TK_INLINE int hand_size(const TGame* g, const TState* s, int p) { return zone_count(g, s, Z_HAND, p); }

/* Sort cards by seq (a small insertion sort). */
TK_INLINE void sort_by_seq(const TState* s, uint8_t* cards, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t c = cards[i];
        int j = i - 1;
        while (j >= 0 && s->cards[cards[j]].seq > s->cards[c].seq) { cards[j + 1] = cards[j]; j--; }
        cards[j + 1] = c;
    }
}

/* -- the record of who knows where each card lies (history.know / forget) -------------------- */
TK_INLINE uint8_t know_default(const TGame* g, const TState* s, int c) {
    return g->card_deck[c] == DECK_DEEDS ? 0 : (uint8_t)everyone(s);
}

TK_INLINE uint8_t known_to(const TGame* g, const TState* s, int c) {
    return s->cards[c].recorded ? s->cards[c].know : know_default(g, s, c);
}

TK_INLINE void know_set(TState* s, int c, uint8_t mask) {
    TCard* k = &s->cards[c];
    if (!k->recorded) {
        k->recorded = 1;
        if (s->kseq >= 60000) {   /* keep the record's order, small numbers */
            uint16_t order[TK_MAX_CARDS];
            int n = 0;
            for (int i = 0; i < TK_MAX_CARDS; i++) if (s->cards[i].recorded && i != c) order[n++] = (uint16_t)i;
            s->kseq = renumber_cards(s, order, n, 1);
        }
        k->kseq = s->kseq++;
    }
    k->know = mask;
}

/* history.know: the players of mask see card c arrive where it lies now. */
TK_INLINE void know1(const TGame* g, TState* s, int c, uint8_t mask) {
    TCard* k = &s->cards[c];
    if (mask == know_default(g, s, c)) {
        k->recorded = 0;
        k->know = 0;
    } else if (!k->recorded || k->know != mask) {
        know_set(s, c, mask);
    }
}

/* history.forget for one card: it may be the one that left, unless you are among mask. */
TK_INLINE void forget1(const TGame* g, TState* s, int c, uint8_t mask) {
    TCard* k = &s->cards[c];
    uint8_t old;
    if (k->recorded) old = k->know;
    else if (g->card_deck[c] == DECK_DEEDS) return;
    else old = (uint8_t)everyone(s);
    uint8_t now = old & mask;
    if (now != old) know_set(s, c, now);
}

/* -- history entries ------------------------------------------------------------------------ */
/* One entry (seen by everyone, or by the players of mask: the others see red). Folded into the
 * history hashes, and written to the sink when there is one. */
TK_INLINE void hist_add(TState* s, TSink* sink, int pub, uint8_t mask, const TText* text,
                        const TText* red) {
    uint64_t ht = tk_text_hash(text->b, text->n);
    uint64_t hr = pub ? 0 : tk_text_hash(red->b, red->n);
    int all = everyone(s);
    for (int t = 1; t <= all; t++) {
        uint64_t h = (pub || (t & ~mask) == 0) ? ht : hr;
        s->seen[t] = tk_fold(s->seen[t], h);
    }
    if (sink) {
        int need = 5 + text->n + (pub ? 0 : red->n);
        if (sink->used + need > sink->size) { sink->overflow = 1; return; }
        unsigned char* o = sink->buf + sink->used;
        o[0] = pub ? 0xFF : mask;
        o[1] = (unsigned char)(text->n & 0xFF);
        o[2] = (unsigned char)(text->n >> 8);
        memcpy(o + 3, text->b, (size_t)text->n);
        int r = pub ? 0 : red->n;
        o[3 + text->n] = (unsigned char)(r & 0xFF);
        o[4 + text->n] = (unsigned char)(r >> 8);
        if (r) memcpy(o + 5 + text->n, red->b, (size_t)r);
        sink->used += need;
    }
}

TK_INLINE void note_public(TState* s, TSink* sink, const TText* text) {
    hist_add(s, sink, 1, 0, text, text);
}

/* -- the stack ------------------------------------------------------------------------------- */
TK_INLINE TFrame* top_frame(TState* s) { return s->depth ? &s->stack[s->depth - 1] : NULL; }

TK_INLINE TFrame* push(TState* s, int kind, int player) {
    if (s->depth >= TK_STACK) {   /* beyond the limits: flagged, the Python face raises */
        s->overflow = 1;
        return &s->stack[TK_STACK - 1];
    }
    TFrame* f = &s->stack[s->depth++];
    memset(f, 0, sizeof(TFrame));
    f->kind = (uint8_t)kind;
    f->player = (int8_t)player;
    f->rep = 1;
    f->card = TK_NONE;
    return f;
}

/* Frames of a repeatable kind pushed onto an identical one merge (decoded as rep frames). */
TK_INLINE int rep_kind(const TFrame* f) {
    return (f->kind == K_DRAW && f->v[1] != TO_PARENT) || f->kind == K_PICK_FOOD ||
           f->kind == K_TAKE_ENCOUNTER || f->kind == K_DIE;
}

TK_INLINE int same_frame(const TFrame* a, const TFrame* b) {
    return a->kind == b->kind && a->player == b->player && a->card == b->card &&
           a->node == b->node && a->x == b->x && memcmp(a->v, b->v, sizeof a->v) == 0;
}

/* Push a copy of f, merged with the top when it is an identical repeatable frame. */
TK_INLINE void push_frame(TState* s, const TFrame* f) {
    TFrame* t = top_frame(s);
    if (t && rep_kind(f) && same_frame(t, f) && t->rep < 250) {
        t->rep++;
        return;
    }
    if (s->depth >= TK_STACK) { s->overflow = 1; return; }
    s->stack[s->depth] = *f;
    s->stack[s->depth].rep = 1;
    s->depth++;
}

TK_INLINE void pop_top(TState* s) {
    TFrame* t = top_frame(s);
    if (!t) return;
    if (t->rep > 1) t->rep--;
    else s->depth--;
}

/* Remove frame i (not necessarily the top). */
TK_INLINE void remove_frame(TState* s, int i) {
    for (int j = i; j < s->depth - 1; j++) s->stack[j] = s->stack[j + 1];
    s->depth--;
}

TK_INLINE int find_kind(const TState* s, int kind) {
    for (int i = s->depth - 1; i >= 0; i--) if (s->stack[i].kind == kind) return i;
    return -1;
}

TK_INLINE int find_resolve(const TState* s, int card) {
    for (int i = s->depth - 1; i >= 0; i--)
        if (s->stack[i].kind == K_RESOLVE && s->stack[i].card == card) return i;
    return -1;
}

TK_INLINE TFrame frame_of(int kind, int player) {
    TFrame f;
    memset(&f, 0, sizeof f);
    f.kind = (uint8_t)kind;
    f.player = (int8_t)player;
    f.rep = 1;
    f.card = TK_NONE;
    return f;
}

TK_INLINE void push_draw(TState* s, int p, int deck, int to, int viewers, int viewers_set) {
    TFrame f = frame_of(K_DRAW, p);
    f.v[0] = (uint8_t)deck;
    f.v[1] = (uint8_t)to;
    f.v[2] = (uint8_t)viewers;
    f.v[3] = (uint8_t)viewers_set;
    push_frame(s, &f);
}

TK_INLINE void push_pick_food(TState* s, int p, int purpose, int to) {
    TFrame f = frame_of(K_PICK_FOOD, p);
    f.v[0] = (uint8_t)purpose;
    f.v[1] = (uint8_t)to;
    push_frame(s, &f);
}

/* -- decks (decks.py) ------------------------------------------------------------------------ */
TK_INLINE int deck_size(const TGame* g, const TState* s, int d) {
    return zone_count(g, s, Z_DECK, d) + (s->decks[d].top != TK_NONE);
}

TK_INLINE int deck_first_layer(const TGame* g, const TState* s, int d) {
    uint8_t cards[TK_MAX_CARDS];
    int n = zone_cards(g, s, Z_DECK, d, cards), best = 999;
    for (int i = 0; i < n; i++) if (s->cards[cards[i]].sub < best) best = s->cards[cards[i]].sub;
    return best;
}

TK_INLINE void compact_layers(const TGame* g, TState* s, int d) {
    /* renumber the deck's layers 0.. (their order kept) */
    int map[256];
    for (int i = 0; i < 256; i++) map[i] = -1;
    for (int c = 0; c < g->n_cards; c++) if (card_in(s, c, Z_DECK, d)) map[s->cards[c].sub] = 1;
    int k = 0;
    for (int i = 0; i < 256; i++) if (map[i] >= 0) map[i] = k++;
    for (int c = 0; c < g->n_cards; c++) if (card_in(s, c, Z_DECK, d)) s->cards[c].sub = (uint8_t)map[s->cards[c].sub];
    s->decks[d].next_layer = (uint8_t)k;
}

TK_INLINE int new_layer(const TGame* g, TState* s, int d) {
    if (s->decks[d].next_layer >= 250) compact_layers(g, s, d);
    return s->decks[d].next_layer++;
}

/* decks.discard_card */
TK_INLINE void discard_card(const TGame* g, TState* s, int c) {
    int d = g->card_deck[c];
    if (d == DECK_ENCOUNTERS) card_put(s, c, Z_DECK, d, new_layer(g, s, d));
    else card_put(s, c, Z_DISCARD, d, 0);
}

/* decks.deck_top_layer's refill: an empty deed deck takes its discard pile (in sight of all). */
TK_INLINE void refill_deeds(const TGame* g, TState* s) {
    TDeck* d = &s->decks[DECK_DEEDS];
    if (d->top != TK_NONE || zone_count(g, s, Z_DECK, DECK_DEEDS)) return;
    uint8_t pile[TK_MAX_CARDS];
    int n = zone_list(g, s, Z_DISCARD, DECK_DEEDS, pile);
    if (!n) return;
    d->next_layer = 0;
    int layer = new_layer(g, s, DECK_DEEDS);
    for (int i = 0; i < n; i++) {   /* the pile's order is the layer's order: keep the numbers */
        card_zone(s, pile[i], Z_DECK, DECK_DEEDS);
        s->cards[pile[i]].sub = (uint8_t)layer;
    }
    for (int i = 0; i < n; i++) know1(g, s, pile[i], (uint8_t)everyone(s));
}

/* The cards the next draw from deck d is uniform over (sorted by card id), into out. */
TK_INLINE int first_layer_cards(const TGame* g, const TState* s, int d, uint8_t* out) {
    uint8_t cards[TK_MAX_CARDS];
    int m = zone_cards(g, s, Z_DECK, d, cards), best = 999, n = 0;
    for (int i = 0; i < m; i++) if (s->cards[cards[i]].sub < best) best = s->cards[cards[i]].sub;
    for (int i = 0; i < m; i++) if (s->cards[cards[i]].sub == best) out[n++] = cards[i];
    return n;
}

/* Every card of deck d in the reference's layer order (layers, each in order), into out. */
TK_INLINE int deck_cards_ordered(const TGame* g, const TState* s, int d, uint8_t* out) {
    int n = zone_list(g, s, Z_DECK, d, out);
    for (int i = 1; i < n; i++) {   /* stable by layer */
        uint8_t c = out[i];
        int j = i - 1;
        while (j >= 0 && s->cards[out[j]].sub > s->cards[c].sub) { out[j + 1] = out[j]; j--; }
        out[j + 1] = c;
    }
    return n;
}

/* decks.give_card: aside for the player on turn, else to hand. */
TK_INLINE void give_card(TState* s, int p, int c) {
    card_put(s, c, s->turn_player == p ? Z_ASIDE : Z_HAND, p, 0);
}

/* -- food (belongings) ------------------------------------------------------------------------ */
TK_INLINE int gain_food(TState* s, int p, int food, int n) {
    if (n > s->tray[food]) n = s->tray[food];
    s->tray[food] -= (uint16_t)n;
    s->players[p].food[food] += (uint16_t)n;
    return n;
}

TK_INLINE void spend_food(TState* s, int p, int food, int gallery) {
    if (!s->players[p].food[food]) return;
    s->players[p].food[food]--;
    if (gallery) s->gallery_food[food]++;
    else s->tray[food]++;
}

TK_INLINE int food_total(const TPlayer* me) {
    return me->food[0] + me->food[1] + me->food[2] + me->food[3];
}

/* -- the backpack --------------------------------------------------------------------------- */
TK_INLINE int slots_used(const TGame* g, const TPlayer* me) {
    int n = 0;
    for (int i = 0; i < me->n_backpack; i++) n += g->kind_size[me->backpack[i]];
    return n;
}

TK_INLINE int fits(const TGame* g, const TPlayer* me, int kind) {
    return slots_used(g, me) + g->kind_size[kind] <= g->backpack_slots;
}

TK_INLINE int carries(const TPlayer* me, int kind) {
    for (int i = 0; i < me->n_backpack; i++) if (me->backpack[i] == kind) return 1;
    return 0;
}

TK_INLINE int remove_from_pack(TPlayer* me, int kind) {
    for (int i = 0; i < me->n_backpack; i++) {
        if (me->backpack[i] != kind) continue;
        for (int j = i; j < me->n_backpack - 1; j++) me->backpack[j] = me->backpack[j + 1];
        me->n_backpack--;
        return 1;
    }
    return 0;
}

TK_INLINE void add_to_pack(TPlayer* me, int kind) {
    if (me->n_backpack < TK_BACKPACK) me->backpack[me->n_backpack++] = (uint8_t)kind;
}

/* sorted(set(backpack)) as a bit set of kinds: callers walk it by kind_rank where order shows. */
TK_INLINE uint64_t pack_kinds(const TPlayer* me) {
    uint64_t m = 0;
    for (int i = 0; i < me->n_backpack; i++) m |= 1ull << me->backpack[i];
    return m;
}

TK_INLINE int item_value(const TGame* g, const TPlayer* me, const uint8_t* table) {
    int n = 0;
    for (int i = 0; i < me->n_backpack; i++) n += table[me->backpack[i]];
    return n;
}

/* -- the store's slots ---------------------------------------------------------------------- */
TK_INLINE int cell_of(const TState* s, int kind) {
    for (int i = 0; i < TK_CELLS; i++) if (s->store_count[i] && s->store_kind[i] == kind) return i;
    return -1;
}

/* The empty cells of kind's size, as a bit set (row-major order). */
TK_INLINE int empty_cells(const TGame* g, const TState* s, int kind) {
    int large = g->kind_size[kind] == 2, m = 0;
    for (int r = 0; r < g->n_rows; r++)
        for (int c = 0; c < g->n_cols; c++) {
            int i = r * TK_COLS + c;
            if (!s->store_count[i] && g->col_large[c] == large) m |= 1 << i;
        }
    return m;
}

TK_INLINE int lowest_bit(int m) { int i = 0; while (!(m & 1)) { m >>= 1; i++; } return i; }

TK_INLINE void box_item(TState* s, int kind) {
    if (s->n_box_items < TK_BOX_ITEMS) s->box_items[s->n_box_items++] = (uint8_t)kind;
}

TK_INLINE void box_artifact(TState* s, int kind) {
    if (s->n_box_artifacts < TK_GALLERY) s->box_artifacts[s->n_box_artifacts++] = (uint8_t)kind;
}

TK_INLINE void stock_add(TState* s, int cell, int kind) {
    s->store_kind[cell] = (uint8_t)kind;
    s->store_count[cell]++;
}

/* belongings.return_item: an item given up by p (-1: nobody chooses) goes to the store. */
TK_INLINE void return_item(const TGame* g, TState* s, int kind, int p) {
    if (g->kind_artifact[kind]) { box_artifact(s, kind); return; }
    int cell = cell_of(s, kind);
    if (cell < 0) {
        int free = empty_cells(g, s, kind);
        if (popcount8((unsigned)(free & 0xFF)) + popcount8((unsigned)(free >> 8)) > 1 && p >= 0) {
            TFrame* f = push(s, K_RETURN_SLOT, p);
            f->v[0] = (uint8_t)kind;
            return;
        }
        cell = free ? lowest_bit(free) : -1;
    }
    if (cell < 0) { box_item(s, kind); return; }
    stock_add(s, cell, kind);
}

TK_INLINE void drop_item(const TGame* g, TState* s, int p, int kind) {
    remove_from_pack(&s->players[p], kind);
    return_item(g, s, kind, p);
}

/* belongings.take_artifact */
TK_INLINE int artifact_available(const TState* s, int kind) {
    for (int i = 0; i < s->n_available; i++) if (s->available[i] == kind) return i;
    return -1;
}

TK_INLINE void take_artifact(const TGame* g, TState* s, int p, int kind) {
    int at = artifact_available(s, kind);
    if (at < 0) return;
    if (fits(g, &s->players[p], kind)) {
        for (int j = at; j < s->n_available - 1; j++) s->available[j] = s->available[j + 1];
        s->n_available--;
        add_to_pack(&s->players[p], kind);
    } else {
        TFrame* f = push(s, K_MAKE_ROOM, p);
        f->v[0] = (uint8_t)kind;
    }
}

/* -- symbols, morality, the story --------------------------------------------------------- */
static const int8_t SYMBOL_COLUMN[N_SYMBOLS] = {COL_MORAL, COL_MORAL, COL_MORAL, COL_TRADING,
                                               COL_PIONEERING, COL_FIGHTING, -1, -1};

/* belongings.story_symbols: face-up cards showing symbol (wildcards of its column count). */
TK_INLINE int story_symbols(const TGame* g, const TState* s, int p, int symbol) {
    int total = 0, col = SYMBOL_COLUMN[symbol];
    uint8_t story[TK_MAX_CARDS];
    int n = zone_cards(g, s, Z_STORY, p, story);
    for (int i = 0; i < n; i++) {
        int c = story[i];
        const TCard* k = &s->cards[c];
        if (!k->faceup) continue;
        total += g->card_symbols[c][symbol];
        if (col >= 0 && k->sub == col) total += g->card_symbols[c][SYM_WILD];
    }
    return total;
}

TK_INLINE int has_cartographer(const TGame* g, const TState* s, int p) {
    uint8_t story[TK_MAX_CARDS];
    int n = zone_cards(g, s, Z_STORY, p, story);
    for (int i = 0; i < n; i++) if (s->cards[story[i]].faceup && g->card_cartographer[story[i]]) return 1;
    return 0;
}

TK_INLINE int move_budget(const TGame* g, const TState* s, int p) {
    const TPlayer* me = &s->players[p];
    int free = g->backpack_slots - slots_used(g, me);
    if (free < 0) free = 0;
    int uncovered = free < g->backpack_move ? free : g->backpack_move;
    return g->board_move + uncovered + story_symbols(g, s, p, SYM_MOVE) + item_value(g, me, g->kind_move);
}

TK_INLINE int trade_symbols(const TGame* g, const TState* s, int p) {
    return g->board_trade + story_symbols(g, s, p, SYM_TRADE) + item_value(g, &s->players[p], g->kind_trade);
}

TK_INLINE int morality_side(const TState* s, int p) {   /* -1 good, 0 neutral, 1 evil */
    int m = s->players[p].morality;
    return m < 0 ? -1 : m > 0 ? 1 : 0;
}

TK_INLINE void move_morality(const TGame* g, TState* s, int p, int delta) {
    int m = s->players[p].morality + delta;
    if (m < g->morality_min) m = g->morality_min;
    if (m > g->morality_max) m = g->morality_max;
    s->players[p].morality = (int8_t)m;
}

TK_INLINE void check_legendary(const TGame* g, TState* s, int p) {
    for (int t = 0; t < g->n_legendary; t++) {
        if (s->legendary[t] != TK_NONE) continue;
        uint8_t story[TK_MAX_CARDS];
        int n = zone_cards(g, s, Z_STORY, p, story), count = 0;
        for (int i = 0; i < n; i++) count += s->cards[story[i]].sub == g->legendary_column[t];
        if (count >= g->legendary_cards[t]) s->legendary[t] = (uint8_t)p;
    }
}

TK_INLINE void push_side(TState* s, int p, int card) {
    TFrame* f = push(s, K_SIDE, p);
    f->card = (uint8_t)card;
}

/* belongings.add_to_story: side -1 good, 1 evil, 0 the player's choice */
TK_INLINE void add_to_story(const TGame* g, TState* s, int p, int c, int faceup, int column,
                            int side) {
    card_put(s, c, Z_STORY, p, column >= 0 ? column : g->card_column[c]);
    s->cards[c].faceup = (uint8_t)faceup;
    if (faceup) {
        /* the symbols in the card's order: good, evil, either each move the token */
        for (int i = 0; i < g->card_n_moral[c]; i++) {
            int m = g->card_moral[c][i];
            if (m != 2) move_morality(g, s, p, m);
            else if (side == 0) push_side(s, p, c);
            else move_morality(g, s, p, side);
        }
    }
    check_legendary(g, s, p);
}

/* -- the board as it stands ------------------------------------------------------------------ */
/* belongings.location_type: the type a space counts as (-1: none) */
TK_INLINE int location_type(const TGame* g, const TState* s, int space) {
    if (space == TK_NONE) return -1;
    int slot = g->space_slot[space];
    if (slot < 0 || s->tiles[slot] == TK_NONE) return -1;
    int tile = s->tiles[slot];
    if (g->tile_type[tile] == LT_RUINS && s->flipped[slot]) return g->tile_restored[tile];
    return g->tile_type[tile];
}

TK_INLINE int tunnel_is_open(const TGame* g, const TState* s, int space) {
    if (g->space_printed_tunnel[space] && !bit_get(s->tunnel_collapsed, space)) return 1;
    return bit_get(s->tunnel_open, space);
}

TK_INLINE int own_token_on(const TState* s, int p, int space) {
    const TPlayer* me = &s->players[p];
    for (int i = 0; i < me->n_placed; i++) if (me->placed_target[i] == space) return 1;
    return 0;
}

TK_INLINE int on_expedition(const TGame* g, const TState* s, int p) {
    int sp = s->players[p].space;
    return sp != TK_NONE && g->space_area[sp] >= 0;
}

TK_INLINE int company_mask(const TState* s, int p, int evil_only) {
    int m = 0, here = s->players[p].space;
    for (int q = 0; q < s->player_count; q++)
        if (q != p && s->players[q].space == here && (!evil_only || morality_side(s, q) > 0)) m |= 1 << q;
    return m;
}

#endif
