/* The Trial of the Forest's compiled engine: limits, codes and the structs.
 *
 * The engine is the reference rules (solver/games/trial/) transcribed into C: the same step stack
 * (a fixed array of fixed-size frames), the same step kinds, the same effect language (compiled
 * from the pack into node/instruction tables that a small interpreter runs). The state is one
 * pointer-free struct (TState): a copy is a memcpy. The game (TGame) holds everything read from
 * the pack, built once in Python (solver/games/trial/kernel_tables.py) and never changed.
 *
 * Lists of the reference whose order is observable keep their order here: a card's place is a
 * (zone, owner, sub) triple with a sequence number, and a zone's list is its cards in sequence
 * order (appending = the next number); small lists of items and tents are arrays in order.
 * docs/kernel-abi.md ("The Trial's layout") lists every field and the limits.
 */
#ifndef TK_TYPES_H
#define TK_TYPES_H

#include <stdint.h>
#include <string.h>

/* -- limits (a pack or a saved state beyond them is refused, naming engine="reference") ------- */
#define TK_MAX_PLAYERS 4
#define TK_MAX_CARDS 128        /* the schema fixes 126: 70 deeds, 20 encounters, 36 expedition */
#define TK_MAX_SPACES 128       /* board spaces, expedition spaces included */
#define TK_MAX_KINDS 40         /* item kinds + artifacts */
#define TK_SLOTS 12             /* location slots: 3 of each type (schema) */
#define TK_TILES 12
#define TK_RUINS 3
#define TK_RUIN_ITEMS 6
#define TK_CAMPSITES 6          /* one per campsite bonus (schema) */
#define TK_SPOTS 7              /* the campsites and the universal campsite */
#define TK_AREAS 3
#define TK_DECKS 5              /* deeds, encounters, one per area */
#define TK_ROWS 3
#define TK_COLS 4
#define TK_CELLS 12
#define TK_ROW_CARDS 3          /* the encounter row (schema) */
#define TK_MAX_FACES 20
#define TK_MAX_LEGENDARY 8
#define TK_MAX_TENTS 14         /* tent tokens (schema) */
#define TK_BONUSES 12           /* tent bonuses (schema.TENT_BONUSES) */
#define TK_BACKPACK 20          /* entries in a backpack (backpack_slots <= 20) */
#define TK_GALLERY 9
#define TK_BOX_ITEMS 32
#define TK_PAWS 10              /* paws placed between two camps (paws <= 10) */
#define TK_STACK 64             /* frames on the step stack */
#define TK_ROLLS 48             /* dice rolled in one fight */
#define TK_BOUGHT 192           /* purchases in one store visit (food_per_kind <= 32) */
#define TK_SOLD 24
#define TK_SWINDLE 8            /* cards put aside before a Swindler roll */
#define TK_MAX_DICE 24          /* dice of one side in one fight */
#define TK_SUMS 512             /* distinct sums of up to TK_MAX_DICE dice */
#define TK_MAX_NODES 4096
#define TK_MAX_INSTR 4096
#define TK_MAX_OPTIONS 1024
#define TK_MAX_CONDS 1024
#define TK_MAX_COSTS 1024
#define TK_MAX_TERMS 2048
#define TK_MAX_GAINS 1024
#define TK_MAX_PATHS 128
#define TK_MAX_EDGES 1024
#define TK_SETUP_QUEUE 160
#define TK_STRINGS 32768
#define TK_TEXT 1024            /* one history text */
#define TK_SUBSETS 16           /* subsets of the players (history hashes) */
#define TK_ZSLOTS 22            /* hands, cards aside, stories (4 each), decks, discard piles (5 each) */

#define TK_NONE 255
#define TK_CHANCE (-1)
#define TK_TERMINAL (-4)

/* -- codes --------------------------------------------------------------------------------- */
enum { F_RASPBERRY, F_ACORN, F_MUSHROOM, F_TEA, N_FOODS };
enum { COL_MORAL, COL_TRADING, COL_PIONEERING, COL_FIGHTING };
enum { SYM_GOOD, SYM_EVIL, SYM_EITHER, SYM_TRADE, SYM_MOVE, SYM_STRENGTH, SYM_WILD, SYM_DIE,
       N_SYMBOLS };
enum { ENH_MOVE, ENH_STRENGTH, ENH_TRADE, ENH_CARD, ENH_RASPBERRY, ENH_ACORN, ENH_MUSHROOM,
       ENH_TEA, N_ENHANCE };
enum { LT_GROVE, LT_RUINS, LT_LOOKOUT, LT_STORE };
enum { SK_PATH, SK_LOCATION, SK_START, SK_CAMPSITE, SK_EXIT, SK_EXPEDITION };
enum { CB_MORALITY, CB_STORY_FACEDOWN, CB_TEA, CB_ENCOUNTER, CB_COMMON_ITEM, CB_FIRST_PLAYER };
/* tent bonuses, in schema.TENT_BONUSES order */
enum { TB_CARDS, TB_MORALITY, TB_RASPBERRY, TB_ACORN, TB_MUSHROOM, TB_TEA, TB_NONE, TB_FOOD,
       TB_MOVE, TB_TRADE, TB_STRENGTH, TB_CARD_DRAW };
enum { TS_MOVE, TS_TRADE, TS_STRENGTH, TS_CARD_DRAW };  /* one-time tent symbols */
enum { DECK_DEEDS, DECK_ENCOUNTERS, DECK_EXP0 };
/* where a card lies */
enum { Z_NONE, Z_DECK, Z_TOP, Z_DISCARD, Z_HAND, Z_ASIDE, Z_STORY, Z_ROW, Z_HELD, Z_FIGHT,
       Z_SWINDLE };
/* paws_placed targets above the space codes */
#define PT_ENC 250
#define PT_HELP 251
#define PT_EXP0 252
/* named actions */
enum { A_END_TURN, A_DONE, A_YES, A_LEAVE, A_MOVE, A_CAMP, A_TOKEN, A_ELIXIR };

/* step kinds (the reference's names are in tk_kind_names, tk_text.h) */
enum {
    K_NONE, K_MAKE_ROOM, K_RETURN_SLOT, K_SIDE, K_DRAW, K_PAY, K_DRAW_OFFER, K_FACEDOWN_OPTIONAL,
    K_FROM_DISCARD, K_GIVE, K_PICK_CARD, K_PICK_COLUMN, K_PICK_FOOD, K_TAKE_ENCOUNTER, K_TAKE_ITEM,
    K_DEAL_TENT, K_PLACE_TILE, K_RUIN_ITEM, K_SETUP, K_SETUP_DONE, K_START_SPACE, K_STOCK,
    K_END_TURN, K_HAND_LIMIT, K_HELP, K_MOVE, K_NEW_DAY, K_TURN, K_CHOOSE, K_COLLAPSE, K_EFFECTS,
    K_FLIP_CHOICE, K_OFFER, K_RESOLVE, K_DIE, K_DUEL, K_DUEL_TARGET, K_FIGHT, K_FIGHT_CARDS,
    K_FIGHT_DISCARD, K_FIGHT_WEAPON, K_REROLL, K_ROLL, K_SWINDLE, K_SWINDLE_ROLL, K_ENHANCE,
    K_EXCHANGE, K_HARVEST, K_LOOKOUT_DRAW, K_RUINS, K_TURN_TILE, K_USE_LOCATION,
    K_RUINED_STORE_SALE, K_SALE_SLOT, K_STORE_VISIT, K_TRADING_BONUS, K_ADVANCE, K_EMBARK,
    K_EXHAUSTED, K_EXPEDITION, K_FINISH, K_FLAG, K_LEAVE_EXPEDITION, K_REDRAW, K_BOX_TENT, K_CAMP,
    K_GIFT_TENT, K_PICK_TENT, K_UNIVERSAL,
    K_SETUP_QUEUE,  /* internal: the set-up steps still queued (decoded into those frames) */
    N_KINDS
};
enum { KT_DECISION, KT_CHANCE, KT_AUTO };

/* draw destinations (frame v[1]) */
enum { TO_ASIDE, TO_HAND, TO_PARENT, TO_STORY, TO_TOP, TO_ROW0 };
/* set-up pools */
enum { POOL_COMMON, POOL_RARE, POOL_ONE_EACH };
/* fight stages (fights.STAGES) */
enum { ST_WEAPON_A, ST_BOW_A, ST_WEAPON_D, ST_BOW_D, ST_ROLL_D, ST_ROLL_A, ST_DISCARD_A,
       ST_DISCARD_D, ST_CARDS_A, ST_CARDS_D, ST_END };
/* die purposes */
enum { PU_STRENGTH, PU_BOW, PU_ROLL, PU_SWINDLE };

/* effect verbs (schema.VERBS order) */
enum {
    V_GAIN, V_OTHERS_GAIN, V_ALL_DRAW, V_GIVE, V_MORALITY, V_FIGHT, V_DUEL, V_CHOOSE, V_RUIN,
    V_RESTORE, V_FLIP, V_DIG, V_COLLAPSE, V_ADVANCE, V_ARTIFACT, V_ITEM, V_STORY_FROM_HAND,
    V_TAKE_DISCARD, V_ENCOUNTER_TO_HAND, V_FIRST_PLAYER, V_TENT_FROM_BOX, V_MOVE_FLAG,
    V_PLACE_FLAG, V_REVEAL_TOPS, V_PEEK, V_ROLL, V_SWINDLE, V_OTHERS_MAY, V_THEN,
    V_DRAW_TO_STORY, V_SWAP_STRONG_PAW, V_LEAVE, N_VERBS
};
/* condition keys */
enum { C_AT, C_COMPANY, C_MORALITY, C_PAWS, C_TRACKER, C_NO_TUNNEL, C_STORY_EVIL };
/* C_AT arguments: the four location types, then: */
#define AT_CAMPSITE 4
#define AT_TUNNEL 5
#define AT_LOCATION 6
/* node kinds */
enum { N_LIST, N_FIGHT_ARG, N_CHOOSE_ARG, N_ROLL_ARG, N_SWINDLE_ARG, N_OTHERS_ARG };
/* gain keys: the four foods, then */
#define G_FOOD 4
#define G_CARD 5
/* cost alternative bits */
#define ALT_FOOD_ANY (1ull << 4)
#define ALT_ITEM_ANY (1ull << 5)
#define ALT_AMPHIBIAN (1ull << 6)
#define ALT_CARD (1ull << 7)
#define ALT_KIND0 8
#define ALT_FOODS 0xFull
#define ALT_RAW 0x7ull

#define NO_NODE 0xFFFF

/* -- the game: everything read from the pack, built once ----------------------------------- */
typedef struct {
    uint8_t kind;       /* N_LIST... */
    uint8_t card;
    uint16_t first;     /* N_LIST: first instruction; N_CHOOSE_ARG: first option */
    uint16_t count;     /* instructions / options */
    int16_t a, b;       /* fight: strength, dice; roll: need (-1: win); swindle: up to */
    uint16_t n1, n2;    /* fight: win, lose; roll: success, fail; swindle: success;
                           others_may: effect, you */
    uint16_t cost;      /* roll: reroll cost; others_may: cost */
    uint8_t c;          /* fight: lose_card (0 story, 1 facedown, 2 discard) */
    uint8_t pad;
} TNode;

typedef struct {
    uint8_t verb;
    uint8_t a, b, c;    /* verb arguments (see tk_effects.h) */
    uint16_t node;      /* the argument node (fight, choose, roll, swindle, others_may) */
    uint16_t gains;     /* gain / others_gain: first entry in TGame.gain_key/gain_n */
    uint16_t n_gains;
    uint16_t pad;
} TInstr;

typedef struct {
    uint8_t morality;   /* 0 none, 1 good, 2 evil */
    uint8_t pad;
    uint16_t cond_first, cond_count;
    uint16_t cost;      /* NO_NODE: none */
    uint16_t effect;    /* the option's effect list node */
} TOption;

typedef struct { uint8_t key; uint8_t pad; int16_t arg; } TCond;

typedef struct {
    uint64_t alts;      /* ALT_* bits and item kinds from ALT_KIND0 */
    uint8_t have;       /* a have term (owned, not spent) */
    uint8_t per_item;   /* one unit per item carried */
    uint8_t gallery;    /* spent into the gallery */
    uint8_t unit_type;  /* the canonical (alts, to) id (observation hash) */
} TTerm;

typedef struct { uint16_t first, count; } TCost;

typedef struct {
    uint8_t from, to;   /* space indices */
    uint8_t line;       /* 0 none, 1 dotted, 2 dashed */
    uint8_t pad;
    uint16_t cost;      /* NO_NODE: free */
} TPath;

typedef struct {
    int n_players;
    int n_cards, n_deeds, n_encounters;
    int n_spaces, n_board_spaces, n_kinds, n_items, n_tiles;
    int n_areas, n_legendary, n_faces, n_tents, n_rows, n_cols, n_one_each_kinds;
    int n_commons, n_rares;
    /* action layout */
    int A_PAW, A_OPTION, A_FOOD, A_COLUMN, A_PLAYER, A_TENT, A_CELL, A_BONUS, A_DIE, A_TILE,
        A_ITEM, A_SELL, A_SPACE, A_CARD, A_DROP, A_SIZE;
    /* components */
    int food_per_kind, board_move, board_strength, board_trade, backpack_slots, backpack_move;
    int morality_min, morality_max, first_player_fame, hand_limit, start_hand, paws, tents_each;
    int row_size;
    int start_food[N_FOODS];
    int morality_fame[41];
    int face_strength[TK_MAX_FACES];
    uint8_t face_win[TK_MAX_FACES];
    /* die faces merged (fights.die_faces): strength, win, probability */
    int n_dfaces;
    int dface_strength[TK_MAX_FACES];
    uint8_t dface_win[TK_MAX_FACES];
    double dface_prob[TK_MAX_FACES];
    uint8_t dface_of_face[TK_MAX_FACES];
    /* dice_sum(faces, k): the sums in the reference dict's insertion order */
    int dsum_count[TK_MAX_DICE + 1];
    int dsum_first[TK_MAX_DICE + 1];
    int dsum_value[TK_SUMS * 4];
    double dsum_prob[TK_SUMS * 4];
    int legendary_column[TK_MAX_LEGENDARY], legendary_cards[TK_MAX_LEGENDARY],
        legendary_fame[TK_MAX_LEGENDARY];
    uint8_t tent_bonus[TK_MAX_TENTS];   /* the box's tents at set-up, pack order */
    /* cards */
    uint8_t card_deck[TK_MAX_CARDS];
    int16_t card_fame[TK_MAX_CARDS];
    uint8_t card_symbols[TK_MAX_CARDS][N_SYMBOLS];   /* count of each symbol */
    uint8_t card_column[TK_MAX_CARDS];
    int8_t card_moral[TK_MAX_CARDS][8];              /* good -1, evil 1, either 2, in card order */
    uint8_t card_n_moral[TK_MAX_CARDS];
    uint8_t card_either_or_evil[TK_MAX_CARDS];
    uint8_t card_enhance[TK_MAX_CARDS][N_ENHANCE];   /* enhancement symbols by kind */
    uint8_t card_strength_discard[TK_MAX_CARDS];     /* fights.strength_card */
    uint8_t card_strength_facedown[TK_MAX_CARDS];    /* fights.card_strength */
    int8_t card_grove_bonus[TK_MAX_CARDS];           /* food, or -1 */
    uint8_t card_lookout_bonus[TK_MAX_CARDS];
    uint8_t card_cartographer[TK_MAX_CARDS];
    uint8_t card_company[TK_MAX_CARDS];              /* "company" among its conditions */
    uint16_t card_cond_first[TK_MAX_CARDS], card_cond_count[TK_MAX_CARDS];
    uint16_t card_cost[TK_MAX_CARDS];
    uint16_t card_effect[TK_MAX_CARDS], card_unpaid[TK_MAX_CARDS];
    uint16_t card_foe[TK_MAX_CARDS];   /* agents._fight_of: the first top-level fight argument */
    uint8_t card_area[TK_MAX_CARDS];
    uint16_t card_rank[TK_MAX_CARDS];  /* the card's place in sorted(card ids) */
    /* items and artifacts */
    uint8_t kind_artifact[TK_MAX_KINDS], kind_rare[TK_MAX_KINDS], kind_size[TK_MAX_KINDS];
    uint8_t kind_large[TK_MAX_KINDS];
    int16_t kind_fame[TK_MAX_KINDS];
    uint8_t kind_strength[TK_MAX_KINDS], kind_trade[TK_MAX_KINDS], kind_move[TK_MAX_KINDS];
    uint8_t kind_dice[TK_MAX_KINDS], kind_shield[TK_MAX_KINDS], kind_bow[TK_MAX_KINDS];
    uint8_t kind_amphibian[TK_MAX_KINDS];
    uint16_t kind_rank[TK_MAX_KINDS];  /* place in sorted(kind ids) */
    int kind_compass, kind_elixir, kind_bow_name;   /* by id, -1 when absent */
    uint8_t artifact_order[TK_GALLERY];             /* artifacts in pack order */
    int n_artifacts;
    uint8_t commons_init[24], rares_init[24];       /* the set-up pools, pack order */
    uint8_t one_each_init[24];                      /* sorted(set(commons)) */
    /* board */
    uint8_t space_kind[TK_MAX_SPACES];
    int8_t space_slot[TK_MAX_SPACES];      /* location slot index or -1 */
    int8_t space_quarter[TK_MAX_SPACES];
    int8_t space_campsite[TK_MAX_SPACES];  /* campsite index or -1 */
    uint8_t space_printed_tunnel[TK_MAX_SPACES];
    int8_t space_area[TK_MAX_SPACES];      /* expedition area or -1 */
    int16_t space_finish[TK_MAX_SPACES];   /* finishing fame or 0 */
    int8_t space_resource[TK_MAX_SPACES];  /* finishing resource food or -1 */
    double space_pref[TK_MAX_SPACES];      /* agents._SPACE_PREFERENCE by id prefix */
    uint8_t space_camp_prefix[TK_MAX_SPACES];
    uint16_t adj_first[TK_MAX_SPACES + 1];
    uint8_t adj[TK_MAX_EDGES * 2];
    int area_start[TK_AREAS], area_exit[TK_AREAS], area_nearest_finish[TK_AREAS];
    int n_paths;
    TPath paths[TK_MAX_PATHS];
    uint8_t slot_space[TK_SLOTS];          /* location slots in board order */
    uint8_t slot_type[TK_SLOTS];
    int8_t slot_ruin[TK_SLOTS];            /* ruins index or -1 */
    uint8_t ruin_slot[TK_RUINS];
    uint8_t campsite_space[TK_CAMPSITES];
    uint8_t campsite_bonus[TK_CAMPSITES];
    int n_campsites;
    uint8_t start_spaces[TK_MAX_SPACES];
    int n_starts;
    int tunnel_tokens;
    /* tiles */
    uint8_t tile_type[TK_TILES];
    int8_t tile_food[TK_TILES];            /* grove food */
    uint8_t tile_ruined[TK_TILES];         /* exchange food / discard_pick N / sell_once mode */
    uint8_t tile_restored[TK_TILES];       /* ruins: the restored type */
    /* store */
    uint8_t col_large[TK_COLS];
    int8_t col_price[TK_COLS], row_price[TK_ROWS];   /* food code, 4: any food */
    uint16_t cell_cost[TK_CELLS];                    /* the price as a cost */
    uint16_t cost_food1, cost_tea1, cost_food2;      /* food_units(...) */
    /* the effect language */
    int n_nodes, n_instr, n_options, n_conds, n_costs, n_terms, n_gains;
    TNode nodes[TK_MAX_NODES];
    TInstr instr[TK_MAX_INSTR];
    TOption options[TK_MAX_OPTIONS];
    TCond conds[TK_MAX_CONDS];
    TCost costs[TK_MAX_COSTS];
    TTerm terms[TK_MAX_TERMS];
    uint8_t gain_key[TK_MAX_GAINS], gain_n[TK_MAX_GAINS];
    /* the set-up queue for this player count (frames, the first on top first) */
    int n_setup;
    uint8_t setup_kind[TK_SETUP_QUEUE], setup_a[TK_SETUP_QUEUE], setup_b[TK_SETUP_QUEUE],
        setup_c[TK_SETUP_QUEUE];
    int8_t setup_player[TK_SETUP_QUEUE];
    /* strings for the history texts: offsets into chars (NUL-terminated) */
    char chars[TK_STRINGS];
    uint16_t str_card[TK_MAX_CARDS], str_space[TK_MAX_SPACES], str_kind[TK_MAX_KINDS];
    uint16_t str_card_json[TK_MAX_CARDS];   /* json.dumps(card id) */
    uint16_t str_kindname[N_KINDS];          /* the step kinds' names */
    uint16_t str_area[TK_AREAS], str_bonus[TK_BONUSES];
} TGame;

/* -- the state ------------------------------------------------------------------------------ */
typedef struct {
    uint8_t kind;
    int8_t player;
    uint8_t rep;        /* identical frames in a row (draws, gains): decoded as rep frames */
    uint8_t card;
    uint8_t v[12];      /* the kind's fields (see tk_frames.h) */
    uint16_t node;
    int16_t x;
} TFrame;

typedef struct {
    uint8_t zone, who, sub, faceup;   /* Z_*, owner (player/deck/slot/side), layer or column */
    uint16_t seq;                     /* order within the zone's list */
    uint8_t know;                     /* players who know where it lies (a recorded entry) */
    uint8_t recorded;                 /* it has an entry in card_knowledge */
    uint16_t kseq;                    /* the entry's order in card_knowledge */
    uint16_t pad;
} TCard;

typedef struct {
    uint16_t food[N_FOODS];
    uint8_t space;                    /* TK_NONE before the set-up places it */
    int8_t morality;
    uint8_t paws, strong_paw, camped, n_backpack;
    uint8_t backpack[TK_BACKPACK];
    uint8_t n_gallery, gallery[TK_GALLERY];
    uint8_t n_placed, placed_target[TK_PAWS], placed_strong[TK_PAWS];
    uint8_t n_tents, tents[TK_MAX_TENTS];
    uint8_t flags[TK_AREAS];          /* finishing space, or TK_NONE */
    uint8_t tent_symbols[4];
    uint8_t pad[3];
} TPlayer;

typedef struct {
    uint8_t top, viewers, viewers_set, next_layer;   /* top card (TK_NONE), its viewers */
} TDeck;

typedef struct {   /* the fight being fought (one at a time) */
    uint8_t card, stage, defender, winner;   /* defender/winner: TK_NONE for none */
    uint8_t attacker, stake, n_rolls, pad;
    uint8_t weapons[2];
    uint8_t n_down[2], down[2][2];
    int16_t discard[2];
    int16_t foe_strength, foe_dice;
    uint16_t node;                            /* the fight argument, NO_NODE in a duel */
    uint8_t rolls[TK_ROLLS];                  /* side<<7 | purpose<<5 | face */
} TFight;

typedef struct {   /* the latest decided fight (fights.fight_record) */
    uint8_t present, card, attacker, defender, winner, n_rolls;
    int16_t strength[2];
    uint8_t rolls[TK_ROLLS];
} TRecord;

typedef struct {
    uint8_t player_count, day, first_player, turn_player, game_over, depth;
    uint8_t tunnel_tokens, has_setup_pool, has_one_each;
    uint8_t n_common, n_rare, n_one_each;
    uint8_t common[24], rare[24], one_each[24];
    uint16_t tray[N_FOODS], gallery_food[N_FOODS];
    uint16_t seq, kseq;                       /* the counters behind TCard.seq and .kseq */
    uint8_t tiles[TK_SLOTS], flipped[TK_SLOTS];
    uint8_t n_ruin[TK_RUINS], ruin_items[TK_RUINS][TK_RUIN_ITEMS], ruin_seen[TK_RUINS];
    uint8_t tunnel_open[TK_MAX_SPACES / 8], tunnel_collapsed[TK_MAX_SPACES / 8];
    uint8_t store_kind[TK_CELLS], store_count[TK_CELLS];
    uint8_t n_box_tents, box_tents[TK_MAX_TENTS];
    uint8_t n_used_tents, used_tents[TK_MAX_TENTS];
    uint8_t n_box_items, box_items[TK_BOX_ITEMS];
    uint8_t n_box_artifacts, box_artifacts[TK_GALLERY];
    uint8_t n_available, available[TK_GALLERY];
    uint8_t row[TK_ROW_CARDS];
    uint8_t camp_tent[TK_SPOTS], camp_owner[TK_SPOTS];   /* owner 4: none (a box tent) */
    uint8_t legendary[TK_MAX_LEGENDARY];
    uint8_t n_bought, n_sold, n_swindle, overflow;   /* overflow: a push past TK_STACK (never expected) */
    uint8_t bought[TK_BOUGHT], sold[TK_SOLD], swindle[TK_SWINDLE];
    uint64_t choices[2];                      /* from_discard: the cards that may be taken */
    TDeck decks[TK_DECKS];
    TPlayer players[TK_MAX_PLAYERS];
    TCard cards[TK_MAX_CARDS];
    TFight fight;
    TRecord last_fight;
    uint64_t zmask[TK_ZSLOTS][2];   /* the cards of each hand, cards aside, story, deck and discard
                                      pile as a bit set (kept by card_zone: TCard is the truth) */
    uint64_t seen[TK_SUBSETS];   /* history hashes: seen[T] folds each entry as the players T see
                                    it when all of T see its text, else its redacted text */
    TFrame stack[TK_STACK];
} TState;

/* a sink for the history entries (the Python face asks for them; searchers pass NULL) */
typedef struct {
    unsigned char* buf;
    int size, used, overflow;
} TSink;

#endif
