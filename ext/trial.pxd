# cython: language_level=3
"""The compiled Trial's C structs and entry points (``ext/trial_kernel/*.h``), for ``trial.pyx``.

The engine is written in C (``ext/trial_kernel/``): the state ``TState`` (a fixed-size struct
without pointers: a copy is a ``memcpy``), the game ``TGame`` (the pack compiled into tables, built
once from ``solver/games/trial/kernel_tables.py``) and the transitions. ``docs/kernel-abi.md``
("The Trial's layout") describes every field and the limits.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t

cdef extern from "trial_kernel/tk_engine.h" nogil:
    enum:
        TK_MAX_PLAYERS
        TK_MAX_CARDS
        TK_MAX_SPACES
        TK_MAX_KINDS
        TK_SLOTS
        TK_TILES
        TK_RUINS
        TK_RUIN_ITEMS
        TK_CAMPSITES
        TK_SPOTS
        TK_AREAS
        TK_DECKS
        TK_ROWS
        TK_COLS
        TK_CELLS
        TK_ROW_CARDS
        TK_MAX_FACES
        TK_MAX_LEGENDARY
        TK_MAX_TENTS
        TK_BONUSES
        TK_BACKPACK
        TK_GALLERY
        TK_BOX_ITEMS
        TK_PAWS
        TK_STACK
        TK_ROLLS
        TK_BOUGHT
        TK_SOLD
        TK_SWINDLE
        TK_MAX_DICE
        TK_SUMS
        TK_MAX_NODES
        TK_MAX_INSTR
        TK_MAX_OPTIONS
        TK_MAX_CONDS
        TK_MAX_COSTS
        TK_MAX_TERMS
        TK_MAX_GAINS
        TK_MAX_PATHS
        TK_MAX_EDGES
        TK_SETUP_QUEUE
        TK_STRINGS
        TK_SUBSETS
        TK_NONE
        N_KINDS
        N_FOODS
        N_SYMBOLS
        N_ENHANCE

    ctypedef struct TNode:
        uint8_t kind
        uint8_t card
        uint16_t first
        uint16_t count
        int16_t a
        int16_t b
        uint16_t n1
        uint16_t n2
        uint16_t cost
        uint8_t c

    ctypedef struct TInstr:
        uint8_t verb
        uint8_t a
        uint8_t b
        uint8_t c
        uint16_t node
        uint16_t gains
        uint16_t n_gains

    ctypedef struct TOption:
        uint8_t morality
        uint16_t cond_first
        uint16_t cond_count
        uint16_t cost
        uint16_t effect

    ctypedef struct TCond:
        uint8_t key
        int16_t arg

    ctypedef struct TTerm:
        uint64_t alts
        uint8_t have
        uint8_t per_item
        uint8_t gallery
        uint8_t unit_type

    ctypedef struct TCost:
        uint16_t first
        uint16_t count

    ctypedef struct TPath:
        uint8_t start "from"
        uint8_t to
        uint8_t line
        uint16_t cost

    ctypedef struct TGame:
        int n_players, n_cards, n_deeds, n_encounters
        int n_spaces, n_board_spaces, n_kinds, n_items, n_tiles
        int n_areas, n_legendary, n_faces, n_tents, n_rows, n_cols, n_one_each_kinds
        int n_commons, n_rares
        int A_PAW, A_OPTION, A_FOOD, A_COLUMN, A_PLAYER, A_TENT, A_CELL, A_BONUS, A_DIE
        int A_TILE, A_ITEM, A_SELL, A_SPACE, A_CARD, A_DROP, A_SIZE
        int food_per_kind, board_move, board_strength, board_trade, backpack_slots
        int backpack_move, morality_min, morality_max, first_player_fame, hand_limit
        int start_hand, paws, tents_each, row_size
        int start_food[4]
        int morality_fame[41]
        int face_strength[20]
        uint8_t face_win[20]
        int n_dfaces
        int dface_strength[20]
        uint8_t dface_win[20]
        double dface_prob[20]
        uint8_t dface_of_face[20]
        int dsum_count[25]
        int dsum_first[25]
        int dsum_value[2048]
        double dsum_prob[2048]
        int legendary_column[8]
        int legendary_cards[8]
        int legendary_fame[8]
        uint8_t tent_bonus[14]
        uint8_t card_deck[128]
        int16_t card_fame[128]
        uint8_t card_symbols[128][8]
        uint8_t card_column[128]
        int8_t card_moral[128][8]
        uint8_t card_n_moral[128]
        uint8_t card_either_or_evil[128]
        uint8_t card_enhance[128][8]
        uint8_t card_strength_discard[128]
        uint8_t card_strength_facedown[128]
        int8_t card_grove_bonus[128]
        uint8_t card_lookout_bonus[128]
        uint8_t card_cartographer[128]
        uint8_t card_company[128]
        uint16_t card_cond_first[128]
        uint16_t card_cond_count[128]
        uint16_t card_cost[128]
        uint16_t card_effect[128]
        uint16_t card_unpaid[128]
        uint16_t card_foe[128]
        uint8_t card_area[128]
        uint16_t card_rank[128]
        uint8_t kind_artifact[40]
        uint8_t kind_rare[40]
        uint8_t kind_size[40]
        uint8_t kind_large[40]
        int16_t kind_fame[40]
        uint8_t kind_strength[40]
        uint8_t kind_trade[40]
        uint8_t kind_move[40]
        uint8_t kind_dice[40]
        uint8_t kind_shield[40]
        uint8_t kind_bow[40]
        uint8_t kind_amphibian[40]
        uint16_t kind_rank[40]
        int kind_compass, kind_elixir, kind_bow_name
        uint8_t artifact_order[9]
        int n_artifacts
        uint8_t commons_init[24]
        uint8_t rares_init[24]
        uint8_t one_each_init[24]
        uint8_t space_kind[128]
        int8_t space_slot[128]
        int8_t space_quarter[128]
        int8_t space_campsite[128]
        uint8_t space_printed_tunnel[128]
        int8_t space_area[128]
        int16_t space_finish[128]
        int8_t space_resource[128]
        double space_pref[128]
        uint8_t space_camp_prefix[128]
        uint16_t adj_first[129]
        uint8_t adj[2048]
        int area_start[3]
        int area_exit[3]
        int area_nearest_finish[3]
        int n_paths
        TPath paths[128]
        uint8_t slot_space[12]
        uint8_t slot_type[12]
        int8_t slot_ruin[12]
        uint8_t ruin_slot[3]
        uint8_t campsite_space[6]
        uint8_t campsite_bonus[6]
        int n_campsites
        uint8_t start_spaces[128]
        int n_starts
        int tunnel_tokens
        uint8_t tile_type[12]
        int8_t tile_food[12]
        uint8_t tile_ruined[12]
        uint8_t tile_restored[12]
        uint8_t col_large[4]
        int8_t col_price[4]
        int8_t row_price[3]
        uint16_t cell_cost[12]
        uint16_t cost_food1, cost_tea1, cost_food2
        int n_nodes, n_instr, n_options, n_conds, n_costs, n_terms, n_gains
        TNode nodes[4096]
        TInstr instr[4096]
        TOption options[1024]
        TCond conds[1024]
        TCost costs[1024]
        TTerm terms[2048]
        uint8_t gain_key[1024]
        uint8_t gain_n[1024]
        int n_setup
        uint8_t setup_kind[160]
        uint8_t setup_a[160]
        uint8_t setup_b[160]
        uint8_t setup_c[160]
        int8_t setup_player[160]
        char chars[32768]
        uint16_t str_card[128]
        uint16_t str_space[128]
        uint16_t str_kind[40]
        uint16_t str_area[3]
        uint16_t str_bonus[12]
        uint16_t str_card_json[128]
        uint16_t str_kindname[72]

    ctypedef struct TFrame:
        uint8_t kind
        int8_t player
        uint8_t rep
        uint8_t card
        uint8_t v[12]
        uint16_t node
        int16_t x

    ctypedef struct TCard:
        uint8_t zone, who, sub, faceup
        uint16_t seq
        uint8_t know
        uint8_t recorded
        uint16_t kseq

    ctypedef struct TPlayer:
        uint16_t food[4]
        uint8_t space
        int8_t morality
        uint8_t paws, strong_paw, camped, n_backpack
        uint8_t backpack[20]
        uint8_t n_gallery
        uint8_t gallery[9]
        uint8_t n_placed
        uint8_t placed_target[10]
        uint8_t placed_strong[10]
        uint8_t n_tents
        uint8_t tents[14]
        uint8_t flags[3]
        uint8_t tent_symbols[4]

    ctypedef struct TDeck:
        uint8_t top, viewers, viewers_set, next_layer

    ctypedef struct TFight:
        uint8_t card, stage, defender, winner
        uint8_t attacker, stake, n_rolls
        uint8_t weapons[2]
        uint8_t n_down[2]
        uint8_t down[2][2]
        int16_t discard[2]
        int16_t foe_strength, foe_dice
        uint16_t node
        uint8_t rolls[48]

    ctypedef struct TRecord:
        uint8_t present, card, attacker, defender, winner, n_rolls
        int16_t strength[2]
        uint8_t rolls[48]

    ctypedef struct TState:
        uint8_t player_count, day, first_player, turn_player, game_over, depth
        uint8_t tunnel_tokens, has_setup_pool, has_one_each
        uint8_t n_common, n_rare, n_one_each
        uint8_t common[24]
        uint8_t rare[24]
        uint8_t one_each[24]
        uint16_t tray[4]
        uint16_t gallery_food[4]
        uint16_t seq, kseq
        uint8_t tiles[12]
        uint8_t flipped[12]
        uint8_t n_ruin[3]
        uint8_t ruin_items[3][6]
        uint8_t ruin_seen[3]
        uint8_t tunnel_open[16]
        uint8_t tunnel_collapsed[16]
        uint8_t store_kind[12]
        uint8_t store_count[12]
        uint8_t n_box_tents
        uint8_t box_tents[14]
        uint8_t n_used_tents
        uint8_t used_tents[14]
        uint8_t n_box_items
        uint8_t box_items[32]
        uint8_t n_box_artifacts
        uint8_t box_artifacts[9]
        uint8_t n_available
        uint8_t available[9]
        uint8_t row[3]
        uint8_t camp_tent[7]
        uint8_t camp_owner[7]
        uint8_t legendary[8]
        uint8_t n_bought, n_sold, n_swindle, overflow
        uint8_t bought[192]
        uint8_t sold[24]
        uint8_t swindle[8]
        uint64_t choices[2]
        TDeck decks[5]
        TPlayer players[4]
        TCard cards[128]
        TFight fight
        TRecord last_fight
        uint64_t zmask[22][2]
        uint64_t seen[16]
        TFrame stack[64]

    ctypedef struct TSink:
        unsigned char* buf
        int size, used, overflow

    void tk_rebuild_masks(const TGame* g, TState* s)
    uint64_t tk_text_hash(const char* text, int n)
    uint64_t tk_fold(uint64_t acc, uint64_t h)
    void tk_initial(const TGame* g, TState* s)
    int tk_legal(const TGame* g, const TState* s, int* out)
    int tk_chance(const TGame* g, const TState* s, int* acts, double* probs)
    int tk_is_legal(const TGame* g, const TState* s, int a)
    int current_player(const TState* s)
    void apply_action(const TGame* g, TState* s, int a, TSink* sink)
    void tk_returns_into(const TGame* g, const TState* s, double* out)
    double tk_heuristic_of(const TGame* g, const TState* s, int p)
    int fame_total(const TGame* g, const TState* s, int p)
    uint64_t tk_hash_state(const TState* s)
    uint64_t tk_info_key(const TGame* g, const TState* s, int p)
    int tk_resample(const TGame* g, TState* s, int p, uint64_t* rng)
    int tk_policy(const TGame* g, const TState* s, uint64_t* rng)
    int tk_heuristic_choice(const TGame* g, const TState* s, uint64_t* rng)
