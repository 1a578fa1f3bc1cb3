/* The redeal (redeal.py, resample_hidden): everything observer p cannot see dealt again from the
 * caller's SplitMix64 stream, consistently with what p knows.
 *
 * In order: the cards p cannot locate lying in places hidden from p (others' hands and cards
 * aside, others' face-down story cards, face-down fight and Swindler cards, a card waiting for its
 * column, the deed deck and its unseen top; each place keeps its size, the deed deck takes deed
 * cards only); the tops of other decks revealed to others only; the tents p cannot see; the
 * items on ruins p has not looked at (with the set-up pools still to deal). Every pool is taken
 * in a canonical order (by card index, by kind id) before it is shuffled, so the redeal depends
 * on p's view and the stream only. The history hashes become p's redacted ones for everyone
 * (what p did not see is forgotten: seen'[T] = seen[T + p]) and the records of cards p does not
 * know are emptied, as the reference does. */
#ifndef TK_REDEAL_H
#define TK_REDEAL_H

#include "tk_view.h"

TK_INLINE uint64_t rng_next(uint64_t* state) {
    *state += 0x9E3779B97F4A7C15ull;
    return tk_mix(*state);
}

TK_INLINE int rng_below(uint64_t* state, int k) {
    return (int)(((rng_next(state) >> 32) * (uint64_t)k) >> 32);
}

TK_INLINE void shuffle8(uint8_t* a, int n, uint64_t* rng) {
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(rng, i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

TK_INLINE void sort_by_rank(uint8_t* a, int n, const uint16_t* rank) {
    for (int i = 1; i < n; i++) {
        uint8_t x = a[i];
        int j = i - 1;
        while (j >= 0 && rank[a[j]] > rank[x]) { a[j + 1] = a[j]; j--; }
        a[j + 1] = x;
    }
}

TK_INLINE void sort_u8(uint8_t* a, int n) {
    for (int i = 1; i < n; i++) {
        uint8_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
        a[j + 1] = x;
    }
}

/* -- 1. the cards p cannot locate (redeal.redeal_cards) --------------------------------------- */
TK_INLINE int card_unknown(const TGame* g, const TState* s, int c, int p) {
    const TCard* k = &s->cards[c];
    return k->recorded ? !((k->know >> p) & 1) : g->card_deck[c] == DECK_DEEDS;
}

typedef struct {
    int kind;      /* 0 a zone list, 1 a fight side, 2 the swindle, 3 a deck layer */
    int zone, who, sub;
    int free;
} TPlace;

static void redeal_cards(const TGame* g, TState* s, int p, uint64_t* rng) {
    TPlace lists[16], decks[256];
    int nl = 0, nd = 0;
    uint8_t pool[TK_MAX_CARDS];
    int np = 0;
    /* the places hidden from p: others' hands and cards aside, face-down fight and Swindler cards */
    for (int q = 0; q < s->player_count; q++) {
        if (q == p) continue;
        lists[nl++] = (TPlace){0, Z_HAND, q, 0, 0};
        lists[nl++] = (TPlace){0, Z_ASIDE, q, 0, 0};
    }
    if (find_kind(s, K_FIGHT) >= 0) {
        if (s->fight.attacker != p) lists[nl++] = (TPlace){1, 0, 0, 0, 0};
        if (s->fight.defender != TK_NONE && s->fight.defender != p) lists[nl++] = (TPlace){1, 0, 1, 0, 0};
    }
    int sw = find_kind(s, K_SWINDLE);
    if (sw >= 0 && s->stack[sw].player != p) lists[nl++] = (TPlace){2, 0, 0, 0, 0};
    /* the deed deck's layers, in order */
    uint8_t deck[TK_MAX_CARDS];
    int nc = deck_cards_ordered(g, s, DECK_DEEDS, deck);
    for (int i = 0; i < nc; i++)
        if (i == 0 || s->cards[deck[i]].sub != s->cards[deck[i - 1]].sub)
            decks[nd++] = (TPlace){3, Z_DECK, DECK_DEEDS, s->cards[deck[i]].sub, 0};
    /* take the unknown cards out of the lists */
    for (int i = 0; i < nl; i++) {
        TPlace* pl = &lists[i];
        if (pl->kind == 0) {
            uint8_t cards[TK_MAX_CARDS];
            int m = zone_cards(g, s, pl->zone, pl->who, cards);
            for (int k = 0; k < m; k++)
                if (card_unknown(g, s, cards[k], p)) {
                    pool[np++] = cards[k];
                    card_zone(s, cards[k], Z_NONE, 0);
                    pl->free++;
                }
        } else {
            uint8_t* arr = pl->kind == 1 ? s->fight.down[pl->who] : s->swindle;
            uint8_t* n = pl->kind == 1 ? &s->fight.n_down[pl->who] : &s->n_swindle;
            int w = 0;
            for (int j = 0; j < *n; j++) {
                if (card_unknown(g, s, arr[j], p)) { pool[np++] = arr[j]; card_zone(s, arr[j], Z_NONE, 0); pl->free++; }
                else arr[w++] = arr[j];
            }
            *n = (uint8_t)w;
        }
    }
    uint8_t in_deck[TK_MAX_CARDS];
    int nin = zone_cards(g, s, Z_DECK, DECK_DEEDS, in_deck);
    for (int i = 0; i < nd; i++) {
        TPlace* pl = &decks[i];
        for (int k = 0; k < nin; k++) {
            int c = in_deck[k];
            if (s->cards[c].zone == Z_DECK && s->cards[c].sub == pl->sub && card_unknown(g, s, c, p)) {
                pool[np++] = (uint8_t)c;
                card_zone(s, c, Z_NONE, 0);
                pl->free++;
            }
        }
    }
    /* the single places: others' face-down story cards, a card waiting for its column, the
       deed deck's unseen top */
    int single_card[TK_MAX_CARDS], single_frame[TK_MAX_CARDS];
    TCard single_slot[TK_MAX_CARDS];
    int ns = 0, deck_singles = 0;
    for (int q = 0; q < s->player_count; q++) {
        if (q == p) continue;
        uint8_t story[TK_MAX_CARDS];
        int m = zone_list(g, s, Z_STORY, q, story);
        for (int i = 0; i < m; i++)
            if (!s->cards[story[i]].faceup && card_unknown(g, s, story[i], p)) {
                single_card[ns] = story[i];
                single_frame[ns] = -1;
                single_slot[ns++] = s->cards[story[i]];
            }
    }
    for (int i = 0; i < s->depth; i++) {
        const TFrame* f = &s->stack[i];
        if (f->kind == K_PICK_COLUMN && f->player != p && card_unknown(g, s, f->card, p)) {
            single_card[ns] = f->card;
            single_frame[ns] = i;
            single_slot[ns++] = s->cards[f->card];
        }
    }
    TDeck* dd = &s->decks[DECK_DEEDS];
    if (dd->top != TK_NONE && !((dd->viewers >> p) & 1) && card_unknown(g, s, dd->top, p)) {
        single_card[ns] = dd->top;
        single_frame[ns] = -2;
        single_slot[ns++] = s->cards[dd->top];
        deck_singles = 1;
    }
    for (int i = 0; i < ns; i++) { pool[np++] = (uint8_t)single_card[i]; card_zone(s, single_card[i], Z_NONE, 0); }
    /* the pool as a set, shuffled */
    sort_u8(pool, np);
    shuffle8(pool, np, rng);
    int deck_free = deck_singles;
    for (int i = 0; i < nd; i++) deck_free += decks[i].free;
    uint8_t deeds[TK_MAX_CARDS], rest[TK_MAX_CARDS];
    int nde = 0, nre = 0;
    for (int i = 0; i < np; i++) {
        if (g->card_deck[pool[i]] == DECK_DEEDS && nde < deck_free) deeds[nde++] = pool[i];
        else rest[nre++] = pool[i];
    }
    int di = 0;
    for (int i = 0; i < nd; i++)
        for (int k = 0; k < decks[i].free; k++) card_put(s, deeds[di++], Z_DECK, DECK_DEEDS, decks[i].sub);
    for (int i = 0; i < ns; i++) {   /* deeds.pop() / rest.pop(): from the end */
        int c = single_frame[i] == -2 ? deeds[--nde] : rest[--nre];
        TCard slot = single_slot[i];
        card_zone(s, c, slot.zone, slot.who);
        s->cards[c].sub = slot.sub;
        s->cards[c].faceup = slot.faceup;
        s->cards[c].seq = slot.seq;
        if (single_frame[i] >= 0) s->stack[single_frame[i]].card = (uint8_t)c;
        else if (single_frame[i] == -2) dd->top = (uint8_t)c;
    }
    int ri = 0;
    for (int i = 0; i < nl; i++) {
        TPlace* pl = &lists[i];
        for (int k = 0; k < pl->free; k++) {
            int c = rest[ri++];
            if (pl->kind == 0) card_put(s, c, pl->zone, pl->who, 0);
            else if (pl->kind == 1) {
                card_put(s, c, Z_FIGHT, pl->who, 0);
                s->fight.down[pl->who][s->fight.n_down[pl->who]++] = (uint8_t)c;
            } else {
                card_put(s, c, Z_SWINDLE, 0, 0);
                s->swindle[s->n_swindle++] = (uint8_t)c;
            }
        }
    }
    /* the records of cards p does not know are emptied */
    for (int c = 0; c < g->n_cards; c++)
        if (s->cards[c].recorded && !((s->cards[c].know >> p) & 1)) s->cards[c].know = 0;
}

/* -- 2. deck tops (redeal.redeal_deck_tops): layers in a set's order, unseen tops swapped ------ */
static void redeal_deck_tops(const TGame* g, TState* s, int p, uint64_t* rng) {
    for (int d = 0; d < 2 + g->n_areas; d++) {
        uint8_t cards[TK_MAX_CARDS];
        int n = deck_cards_ordered(g, s, d, cards);
        for (int i = 0; i < n;) {   /* every layer in sorted order */
            int j = i;
            while (j < n && s->cards[cards[j]].sub == s->cards[cards[i]].sub) j++;
            sort_by_rank(cards + i, j - i, g->card_rank);
            for (int k = i; k < j; k++) s->cards[cards[k]].seq = next_seq(s);
            i = j;
        }
        TDeck* dk = &s->decks[d];
        if (d == DECK_DEEDS || dk->top == TK_NONE || ((dk->viewers >> p) & 1) || n == 0) continue;
        uint8_t layer[TK_MAX_CARDS];
        int m = first_layer_cards(g, s, d, layer);
        if (m == 0) continue;
        int sub = s->cards[layer[0]].sub;
        layer[m++] = dk->top;
        sort_by_rank(layer, m, g->card_rank);
        int pick = rng_below(rng, m);
        int top = layer[pick], old = dk->top;
        if (top == old) continue;
        card_zone(s, top, Z_TOP, d);
        s->cards[top].sub = 0;
        dk->top = (uint8_t)top;
        card_put(s, old, Z_DECK, d, sub);
        for (int k = 0; k < m; k++)   /* the layer stays in sorted order */
            if (layer[k] != top) s->cards[layer[k]].seq = next_seq(s);
    }
}

/* -- 3. tents (redeal.redeal_tents) ----------------------------------------------------------- */
static void redeal_tents(const TGame* g, TState* s, int p, uint64_t* rng) {
    uint8_t pool[64];
    int n = 0;
    for (int q = 0; q < s->player_count; q++)
        if (q != p) for (int i = 0; i < s->players[q].n_tents; i++) pool[n++] = s->players[q].tents[i];
    for (int i = 0; i < s->n_box_tents; i++) pool[n++] = s->box_tents[i];
    for (int i = 0; i <= g->n_campsites; i++)
        if (s->camp_tent[i] != TK_NONE && s->camp_owner[i] != p) pool[n++] = s->camp_tent[i];
    sort_u8(pool, n);
    shuffle8(pool, n, rng);
    int at = 0;
    for (int q = 0; q < s->player_count; q++)
        if (q != p) for (int i = 0; i < s->players[q].n_tents; i++) s->players[q].tents[i] = pool[at++];
    for (int i = 0; i < s->n_box_tents; i++) s->box_tents[i] = pool[at++];
    for (int i = 0; i <= g->n_campsites; i++)
        if (s->camp_tent[i] != TK_NONE && s->camp_owner[i] != p) s->camp_tent[i] = pool[--n];
}

/* -- 4. ruin items (redeal.redeal_ruin_items and the set-up pools) ----------------------------- */
TK_INLINE void ruin_remove(TState* s, int r, int kind) {
    for (int i = 0; i < s->n_ruin[r]; i++) {
        if (s->ruin_items[r][i] != kind) continue;
        for (int j = i; j < s->n_ruin[r] - 1; j++) s->ruin_items[r][j] = s->ruin_items[r][j + 1];
        s->n_ruin[r]--;
        return;
    }
}

TK_INLINE void pool_remove(uint8_t* pool, uint8_t* n, int kind) {
    for (int i = 0; i < *n; i++) {
        if (pool[i] != kind) continue;
        for (int j = i; j < *n - 1; j++) pool[j] = pool[j + 1];
        (*n)--;
        return;
    }
}

/* shuffle the n kinds of ``pool`` (in rank order first: the draw does not depend on how they were
   gathered) and deal them back into the unseen ruins, each ruin losing the sizes[u] kinds of its
   groups[u] row and getting as many from the pool; returns how many the ruins took */
static int redeal_groups(const TGame* g, TState* s, const int* unseen, int nu,
                         uint8_t (*groups)[TK_RUIN_ITEMS], const int* sizes, uint8_t* pool, int n,
                         uint64_t* rng) {
    sort_by_rank(pool, n, g->kind_rank);
    shuffle8(pool, n, rng);
    int at = 0;
    for (int u = 0; u < nu; u++) {
        int r = unseen[u];
        for (int i = 0; i < sizes[u]; i++) ruin_remove(s, r, groups[u][i]);
        for (int i = 0; i < sizes[u]; i++) s->ruin_items[r][s->n_ruin[r]++] = pool[at++];
    }
    return at;
}

static void redeal_setup_rares(const TGame* g, TState* s, const int* unseen, int nu, uint64_t* rng) {
    uint8_t both[64], groups[TK_RUINS][TK_RUIN_ITEMS];
    int n = 0, sizes[TK_RUINS];
    for (int i = 0; i < s->n_rare; i++) both[n++] = s->rare[i];
    for (int u = 0; u < nu; u++) {
        int r = unseen[u];
        sizes[u] = 0;
        for (int i = 0; i < s->n_ruin[r]; i++)
            if (g->kind_rare[s->ruin_items[r][i]]) groups[u][sizes[u]++] = both[n++] = s->ruin_items[r][i];
    }
    int at = redeal_groups(g, s, unseen, nu, groups, sizes, both, n, rng);
    s->n_rare = (uint8_t)(n - at);
    for (int i = 0; i < n - at; i++) s->rare[i] = both[at + i];
    sort_by_rank(s->rare, s->n_rare, g->kind_rank);
}

static void redeal_setup_commons(const TGame* g, TState* s, const int* unseen, int nu, uint64_t* rng) {
    if (!s->has_one_each || !s->n_one_each) return;
    uint64_t commons = 0, stocked = 0, left = 0;
    for (int u = 0; u < nu; u++)
        for (int i = 0; i < s->n_ruin[unseen[u]]; i++)
            if (kind_common(g, s->ruin_items[unseen[u]][i])) commons |= 1ull << s->ruin_items[unseen[u]][i];
    for (int i = 0; i < TK_CELLS; i++) if (s->store_count[i]) stocked |= 1ull << s->store_kind[i];
    for (int i = 0; i < s->n_one_each; i++) left |= 1ull << s->one_each[i];
    uint8_t free_left[32], kinds[64];
    int nf = 0, nk = 0, slot_r[32], slot_i[32], ns = 0;
    for (int i = 0; i < s->n_one_each; i++)
        if (!((stocked >> s->one_each[i]) & 1)) free_left[nf++] = s->one_each[i];
    sort_by_rank(free_left, nf, g->kind_rank);
    for (int u = 0; u < nu; u++) {
        int r = unseen[u];
        for (int i = 0; i < s->n_ruin[r]; i++) {
            int k = s->ruin_items[r][i];
            if (((commons >> k) & 1) && !((stocked >> k) & 1) && !((left >> k) & 1)) { slot_r[ns] = r; slot_i[ns++] = i; }
        }
    }
    for (int i = 0; i < nf; i++) kinds[nk++] = free_left[i];
    for (int i = 0; i < ns; i++) kinds[nk++] = s->ruin_items[slot_r[i]][slot_i[i]];
    uint64_t seen = 0;
    for (int i = 0; i < nk; i++) {
        if ((seen >> kinds[i]) & 1) return;   /* a kind twice: no swap */
        seen |= 1ull << kinds[i];
    }
    if (!nf || !ns) return;
    sort_by_rank(kinds, nk, g->kind_rank);
    shuffle8(kinds, nk, rng);
    for (int i = 0; i < nf; i++) pool_remove(s->one_each, &s->n_one_each, free_left[i]);
    for (int i = 0; i < ns; i++) s->common[s->n_common++] = s->ruin_items[slot_r[i]][slot_i[i]];
    for (int i = 0; i < ns; i++) {
        int kind = kinds[--nk];
        s->ruin_items[slot_r[i]][slot_i[i]] = (uint8_t)kind;
        pool_remove(s->common, &s->n_common, kind);
    }
    for (int i = 0; i < nk; i++) s->one_each[s->n_one_each++] = kinds[i];
    sort_by_rank(s->one_each, s->n_one_each, g->kind_rank);
    sort_by_rank(s->common, s->n_common, g->kind_rank);
}

static void redeal_ruin_items(const TGame* g, TState* s, int p, uint64_t* rng) {
    int unseen[TK_RUINS], nu = 0;
    for (int r = 0; r < TK_RUINS; r++) if (!((s->ruin_seen[r] >> p) & 1)) unseen[nu++] = r;
    if (s->has_setup_pool) {
        redeal_setup_rares(g, s, unseen, nu, rng);
        redeal_setup_commons(g, s, unseen, nu, rng);
    }
    for (int rare = 0; rare < 2; rare++) {
        uint8_t pool[64], groups[TK_RUINS][TK_RUIN_ITEMS];
        int n = 0, sizes[TK_RUINS];
        for (int u = 0; u < nu; u++) {
            int r = unseen[u];
            sizes[u] = 0;
            for (int i = 0; i < s->n_ruin[r]; i++) {
                int k = s->ruin_items[r][i];
                if (!g->kind_artifact[k] && g->kind_rare[k] == rare) groups[u][sizes[u]++] = pool[n++] = (uint8_t)k;
            }
        }
        redeal_groups(g, s, unseen, nu, groups, sizes, pool, n, rng);
    }
}

/* resample_hidden's slot: redeal in place what p cannot see; 0 when done. */
static int tk_resample(const TGame* g, TState* s, int p, uint64_t* rng) {
    if (p < 0 || p >= s->player_count) return 1;
    uint64_t old[TK_SUBSETS];
    memcpy(old, s->seen, sizeof old);
    for (int t = 1; t <= everyone(s); t++) s->seen[t] = old[t | (1 << p)];
    redeal_cards(g, s, p, rng);
    redeal_deck_tops(g, s, p, rng);
    redeal_tents(g, s, p, rng);
    redeal_ruin_items(g, s, p, rng);
    return 0;
}

#endif
