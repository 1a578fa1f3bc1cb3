# cython: language_level=3
"""The pruning exact search over any compiled kernel (``ext/state.pxd`` only), GIL released.

A recursive fail-soft alpha-beta over expectimax (Ballard's *-minimax, Star1 at chance nodes) for
kernels that declare their utility range [L, U] (``vtable.utility_min/max``) and have one player,
or two players whose returns always add up to L + U (constant-sum: player 1 minimises player 0's
return). Every node returns an interval [lo, hi] holding player 0's exact value; a search of a
node with the window (alpha, beta) returns one with ``hi <= alpha`` (fail low), ``lo >= beta``
(fail high) or ``lo == hi`` (exact). The transposition table stores those intervals (bounds),
keyed by the kernel's packed key (``vtable.pack``, else the state bytes).

Threads share the bounds table: every entry is a proven interval whoever stored it, so a worker
may use what another proved. A worker locks the one bucket it touches (a bit beside the entries);
a growth waits until every other worker is out of the table; one thread alone takes no lock.
``solver/search/pruning.py`` is the Python face; ``docs/search.md`` has the algorithm and the
thread scheme. The plain table is ``ext/expectimax.pyx``; the two share ``ext/exact.pxd`` (status
codes, tolerances, the clock) and this one alone takes ``ext/atomics.pxd``.
"""

from libc.math cimport fabs
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from atomics cimport (
    fs_add_i64,
    fs_add_int,
    fs_add_size,
    fs_and_u8,
    fs_cas_int,
    fs_cas_size,
    fs_cas_u8,
    fs_load_int,
    fs_load_int_sc,
    fs_load_size,
    fs_load_u64,
    fs_load_u8,
    fs_load_u8_sc,
    fs_lock,
    fs_pause,
    fs_store_int,
    fs_store_size,
    fs_store_u64,
    fs_store_u8,
    fs_store_u8_sc,
    fs_unlock,
)
from exact cimport *  # all of what the two exact searches share (``exact.pxd``)
from rng cimport splitmix64_mix

include "kernel_names.pxi"  # the kernel interface (``state.pxd``) and its exported names


cdef enum:
    PE_HEADER = 19             # double lo, double hi, uint8 best, uint8 work, uint8 used
    PE_BUCKET = 4              # entries a key may live in (one bucket, consecutive)
    PE_MIN_SLOTS = 64
    PE_MAX_PLIES = 4096
    PE_LINE = 64               # a cache line: each worker's presence flag has one of its own
    PE_LOCK = 2                # threads: the bucket's lock, a bit of its first entry's flag byte
    PE_MAX_THREADS = 64
    PE_KEY_MAX = 256           # the most bytes of a key (pack's, or the state struct's)
    PE_GROW_NUM = 1
    PE_GROW_DEN = 2
    PE_GROW_ON_FULL = 0
    ERR_INEXACT = 6
    ERR_WBUDGET = 7
    ERR_ABANDONED = 8          # a worker's task was finished by another worker (or all stop)
    ERR_NOT_CONSTANT_SUM = 9

cdef enum:                     # the searches ``PruningSearch._run`` makes
    RUN_VALUE = 0
    RUN_INTERVAL = 1
    RUN_FASTEST = 2

cdef double PRUNE_EXACT_EPS = 1e-12
cdef double CONSTANT_SUM_EPS = 1e-9

PRUNING_CONSTANTS = {"PE_MAX_THREADS": PE_MAX_THREADS, "CONSTANT_SUM_EPS": CONSTANT_SUM_EPS}


ctypedef struct PCaller:
    # a worker as a user of a shared table: its index, and what it added and replaced there
    # since the last growth (its own cache line: no counter the workers share)
    int me
    size_t added
    long long replaced


ctypedef struct PTable:
    unsigned char* data
    size_t nslots              # a power of two, a multiple of PE_BUCKET
    size_t stride
    size_t key_size
    size_t cap_bytes           # the most bytes this table may take
    uint64_t hash_mask
    size_t count               # entries held (threads: at the last growth, plus the callers')
    long long replaced         # (threads: plus the callers')
    int nworkers               # threads sharing the table; 0: one thread, no synchronisation
    unsigned char* active      # threads: per worker a line, byte 0 set while it is in the table
    PCaller** callers          # threads: every worker's counters
    int growing                # threads: set while a worker grows the table (the others wait)


ctypedef struct PFrame:
    int actions[KERNEL_MAX_ACTIONS]
    double probs[KERNEL_MAX_ACTIONS]
    double suffix[KERNEL_MAX_ACTIONS + 1]   # chance: suffix sums of probabilities; decision: move order keys
    unsigned char key[PE_KEY_MAX]


ctypedef struct PShared:
    # what the workers of one PruningSearch share (read by all, written rarely; the padding keeps
    # it off the cache lines of worker 0, which sits beside it and writes its counters per node)
    char pad0[128]
    PTable table               # bounds: a = lo, b = hi
    PTable wtable              # the fastest-win pass: a = W, b = V
    size_t cap_bytes
    size_t stack_total         # every worker's stack and the threads' flags and marks (atomic)
    int nthreads
    unsigned char stop         # set when a worker fails: the others leave their tasks
    double deadline            # time.monotonic() past which every worker stops (ERR_DEADLINE); 0: none
    unsigned char halt         # set by stop() from another thread: every worker stops (ERR_DEADLINE)
    # threads: per worker PE_MAX_PLIES marks, the chance outcome it is searching at each ply
    # (0: none); each worker writes only its own, and reads the others' at its own ply
    unsigned long long* paths
    char pad1[128]


ctypedef struct PSearch:
    # one worker: the settings, its stack and counters (padded: workers write theirs per node)
    char pad0[128]
    PShared* sh
    const KernelVTable* vt
    const void* game
    size_t state_size
    size_t state_stride
    double lo_bound            # L
    double hi_bound            # U
    bint memo_chance_only
    bint order
    bint two_player            # constant-sum two-player: player 1 minimises player 0's value
    int tid                    # the worker's index
    PCaller tc                 # the worker as a user of the shared table (its own counters)
    char* states               # PE_MAX_PLIES states, grown on demand
    PFrame* frames
    double* ivals              # threads: per ply, the outcomes' intervals (2 x KERNEL_MAX_ACTIONS)
    size_t plies_cap
    size_t stack_bytes
    int64_t expanded
    int64_t wexpanded
    int64_t wbudget            # the fastest-win pass stops (ERR_WBUDGET) past this many nodes
    int64_t node_budget        # any search stops (ERR_WBUDGET) once ``expanded`` passes it
    unsigned char* abandon     # threads: the current task's done flag (stop once another set it)
    char pad1[128]


cdef inline unsigned char* pe_at(PTable* t, size_t i) noexcept nogil:
    return t.data + i * t.stride


cdef inline uint64_t key_hash(const unsigned char* key, size_t n) noexcept nogil:
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL ^ n
    cdef size_t i = 0
    cdef uint64_t w
    while i + 8 <= n:
        memcpy(&w, key + i, 8)
        h = splitmix64_mix(h ^ w)
        i += 8
    w = 0
    if i < n:
        memcpy(&w, key + i, n - i)
        h = splitmix64_mix(h ^ w ^ 0xFF51AFD7ED558CCDULL)
    return h


# Threads: a worker announces itself (its presence flag, on a line of its own) before it touches
# the table and takes the lock of the one bucket it needs, a bit in that bucket's first flag byte:
# the lock shares its cache line with the entries it guards, and workers in different parts of
# the table write no common line. A worker that grows the table first raises ``growing`` and waits
# for every other worker to be out of the table; a worker arriving meanwhile waits for it.
cdef size_t pt_count(PTable* t) noexcept nogil:
    """Entries held (at rest: read without synchronisation)."""
    cdef size_t n = t.count
    cdef int k
    for k in range(t.nworkers):
        if t.callers[k] != NULL:
            n += t.callers[k].added
    return n


cdef long long pt_replaced(PTable* t) noexcept nogil:
    cdef long long n = t.replaced
    cdef int k
    for k in range(t.nworkers):
        if t.callers[k] != NULL:
            n += t.callers[k].replaced
    return n


cdef int pt_init(PTable* t, size_t key_size, size_t cap_bytes, int nworkers) noexcept nogil:
    memset(t, 0, sizeof(PTable))
    t.key_size = key_size
    t.stride = PE_HEADER + key_size
    t.cap_bytes = cap_bytes
    t.hash_mask = ~(<uint64_t>0)
    if PE_MIN_SLOTS * t.stride > cap_bytes:
        return ERR_BUDGET
    t.data = <unsigned char*>malloc(PE_MIN_SLOTS * t.stride)
    if t.data == NULL:
        return ERR_NOMEM
    memset(t.data, 0, PE_MIN_SLOTS * t.stride)
    t.nslots = PE_MIN_SLOTS
    if nworkers > 1:
        t.active = <unsigned char*>malloc(nworkers * PE_LINE)
        t.callers = <PCaller**>malloc(nworkers * sizeof(PCaller*))
        if t.active == NULL or t.callers == NULL:
            return ERR_NOMEM
        memset(t.active, 0, nworkers * PE_LINE)
        memset(t.callers, 0, nworkers * sizeof(PCaller*))
        t.nworkers = nworkers  # (the callers are filled in once the workers exist)
    return OK


cdef void pt_free(PTable* t) noexcept nogil:
    free_clear(<void**>&t.data)
    free_clear(<void**>&t.active)
    free_clear(<void**>&t.callers)
    t.nworkers = 0
    t.nslots = 0
    t.count = 0


cdef inline size_t pt_bucket(PTable* t, uint64_t h, size_t nslots) noexcept nogil:
    return <size_t>((h & t.hash_mask) * 0x9E3779B97F4A7C15ULL >> 20) & ((nslots // PE_BUCKET) - 1)


cdef inline void pt_enter(PTable* t, PCaller* c) noexcept nogil:
    """Threads: announce the caller in the table (it cannot grow until ``pt_leave``)."""
    cdef unsigned char* mine
    cdef int spins = 0
    if t.nworkers == 0:
        return
    mine = t.active + c.me * PE_LINE
    while True:
        fs_store_u8_sc(mine, 1)
        if not fs_load_int_sc(&t.growing):
            return
        fs_store_u8(mine, 0)
        while fs_load_int(&t.growing):
            fs_pause(&spins)


cdef inline void pt_leave(PTable* t, PCaller* c) noexcept nogil:
    if t.nworkers:
        fs_store_u8(t.active + c.me * PE_LINE, 0)


cdef inline void pt_lock(PTable* t, size_t start) noexcept nogil:
    """Threads: take the lock of the bucket at ``start`` (the caller is in the table)."""
    cdef unsigned char* flag
    cdef unsigned char v
    cdef int spins = 0
    if t.nworkers == 0:
        return
    flag = t.data + start * t.stride + 18
    while True:
        v = fs_load_u8(flag)
        if not (v & PE_LOCK) and fs_cas_u8(flag, v, v | PE_LOCK):
            return
        fs_pause(&spins)


cdef inline void pt_unlock(PTable* t, size_t start) noexcept nogil:
    if t.nworkers:
        fs_and_u8(t.data + start * t.stride + 18, <unsigned char>~PE_LOCK)


cdef bint pt_probe(PTable* t, PCaller* c, const unsigned char* key, double* a, double* b,
                   int* best) noexcept nogil:
    """Copy the entry of ``key`` into ``a``, ``b``, ``best``; False if absent."""
    cdef uint64_t h = key_hash(key, t.key_size)
    cdef size_t start, i
    cdef unsigned char* e
    cdef bint found = False
    pt_enter(t, c)
    start = pt_bucket(t, h, t.nslots) * PE_BUCKET
    pt_lock(t, start)
    for i in range(start, start + PE_BUCKET):
        e = pe_at(t, i)
        if (e[18] & 1) and memcmp(e + PE_HEADER, key, t.key_size) == 0:
            memcpy(a, e, 8)
            memcpy(b, e + 8, 8)
            best[0] = e[16] if e[16] != 255 else -1
            found = True
            break
    pt_unlock(t, start)
    pt_leave(t, c)
    return found


cdef void pt_put_at(PTable* t, PCaller* c, size_t start, const unsigned char* key, double a,
                    double b, int best, int work) noexcept nogil:
    """Store in the bucket at ``start`` (held): replacing the same key, else an empty slot, else
    the bucket's entry with the least work. ``c`` NULL: count in the table itself."""
    cdef size_t i, victim = start
    cdef int least = 1000
    cdef unsigned char* e
    for i in range(start, start + PE_BUCKET):
        e = pe_at(t, i)
        if (e[18] & 1) and memcmp(e + PE_HEADER, key, t.key_size) == 0:
            victim = i
            least = -1
            break
        if not (e[18] & 1):
            if least >= 0:
                victim = i
                least = -1
        elif least >= 0 and e[17] < least:
            least = e[17]
            victim = i
    e = pe_at(t, victim)
    if not (e[18] & 1):
        if c != NULL and t.nworkers:
            c.added += 1
        else:
            t.count += 1
    elif memcmp(e + PE_HEADER, key, t.key_size) != 0:
        if c != NULL and t.nworkers:
            c.replaced += 1
        else:
            t.replaced += 1
    memcpy(e, &a, 8)
    memcpy(e + 8, &b, 8)
    e[16] = <unsigned char>(best if 0 <= best < 255 else 255)
    e[17] = <unsigned char>(work if work < 255 else 255)
    memcpy(e + PE_HEADER, key, t.key_size)
    e[18] = (e[18] & PE_LOCK) | 1  # (the first entry's byte carries the held lock)


cdef void pt_grow(PTable* t, size_t expected) noexcept nogil:
    """Double the table (if it still has ``expected`` slots and the cap allows; else keep it: the
    bucket replaces). With threads, only with every other worker out of the table."""
    cdef size_t n, i, old_n
    cdef unsigned char* old
    cdef unsigned char* e
    cdef unsigned char* data
    cdef double a, b
    cdef int k
    n = t.nslots * 2
    if t.nslots != expected or n * t.stride > t.cap_bytes:
        return
    data = <unsigned char*>malloc(n * t.stride)
    if data == NULL:  # no memory to grow: keep replacing
        return
    memset(data, 0, n * t.stride)
    old = t.data
    old_n = t.nslots
    t.data = data
    t.nslots = n
    t.count = 0
    for k in range(t.nworkers):  # every entry is counted anew below
        if t.callers[k] != NULL:
            t.callers[k].added = 0
    for i in range(old_n):
        e = old + i * t.stride
        if e[18] & 1:
            memcpy(&a, e, 8)
            memcpy(&b, e + 8, 8)
            pt_put_at(t, NULL, pt_bucket(t, key_hash(e + PE_HEADER, t.key_size), n) * PE_BUCKET,
                      e + PE_HEADER, a, b, e[16] if e[16] != 255 else -1, e[17])
    free(old)


cdef void pt_grow_shared(PTable* t, PCaller* c, size_t expected) noexcept nogil:
    """Threads: grow with every other worker out of the table (the caller is out too)."""
    cdef int k, spins = 0
    if not fs_cas_int(&t.growing, 0, 1):
        while fs_load_int(&t.growing):  # another worker grows: wait, then store again
            fs_pause(&spins)
        return
    for k in range(t.nworkers):
        if k != c.me:
            while fs_load_u8_sc(t.active + k * PE_LINE):
                fs_pause(&spins)
    pt_grow(t, expected)
    fs_store_int(&t.growing, 0)


cdef bint pt_bucket_full_at(PTable* t, size_t start, const unsigned char* key) noexcept nogil:
    """Is the bucket at ``start`` (held) full of other keys?"""
    cdef size_t i
    cdef unsigned char* e
    for i in range(start, start + PE_BUCKET):
        e = pe_at(t, i)
        if not (e[18] & 1) or memcmp(e + PE_HEADER, key, t.key_size) == 0:
            return False
    return True


cdef void pt_store(PTable* t, PCaller* c, const unsigned char* key, double a, double b,
                   int best, int work, size_t room) noexcept nogil:
    # grow (by ``room`` more bytes at most, and within the table's own cap) at half full; a new
    # entry meeting a full bucket replaces the bucket's entry with the least work below it
    cdef uint64_t h = key_hash(key, t.key_size)
    cdef size_t start, n, count
    cdef bint tried = False
    while True:
        pt_enter(t, c)
        n = t.nslots
        start = pt_bucket(t, h, n) * PE_BUCKET
        pt_lock(t, start)
        # threads: the entries at the last growth plus this worker's since, once per worker
        count = t.count if t.nworkers == 0 else t.count + c.added * <size_t>t.nworkers
        if (not tried and ((count + 1) * PE_GROW_DEN > n * PE_GROW_NUM
                           or (PE_GROW_ON_FULL and pt_bucket_full_at(t, start, key)))
                and n * 2 * t.stride <= t.cap_bytes and n * t.stride <= room):
            pt_unlock(t, start)
            pt_leave(t, c)
            if t.nworkers:
                pt_grow_shared(t, c, n)
            else:
                pt_grow(t, n)
            tried = True
            continue
        pt_put_at(t, c, start, key, a, b, best, work)
        pt_unlock(t, start)
        pt_leave(t, c)
        return


cdef inline size_t ps_room(PSearch* s) noexcept nogil:
    """Bytes the tables may still take: the cap less what is allocated and a reserve for the
    search stacks (twice their size now, at least 64 plies each)."""
    cdef PShared* sh = s.sh
    cdef size_t stacks = fs_load_size(&sh.stack_total)
    cdef size_t reserve = 2 * stacks
    cdef size_t used = (fs_load_size(&sh.table.nslots) * sh.table.stride
                        + fs_load_size(&sh.wtable.nslots) * sh.wtable.stride + stacks)
    if reserve < 64 * ps_per_ply(s) * <size_t>sh.nthreads:
        reserve = 64 * ps_per_ply(s) * <size_t>sh.nthreads
    if used + reserve >= sh.cap_bytes:
        return 0
    return sh.cap_bytes - used - reserve


cdef inline int work_of(int64_t n) noexcept nogil:
    cdef int w = 0
    while n > 1 and w < 254:
        n >>= 1
        w += 1
    return w


cdef inline size_t ps_per_ply(PSearch* s) noexcept nogil:
    cdef size_t per = s.state_stride + sizeof(PFrame)
    if s.sh.nthreads > 1:
        per += 2 * KERNEL_MAX_ACTIONS * sizeof(double)
    return per


cdef int ps_reserve(PSearch* s, size_t ply) noexcept nogil:
    """Room for the states and frames of plies 0..ply (grown by doubling, within the cap)."""
    cdef size_t cap, per, total
    cdef char* states
    cdef PFrame* frames
    cdef double* ivals
    cdef PShared* sh = s.sh
    if ply < s.plies_cap:
        return OK
    if ply >= PE_MAX_PLIES:
        return ERR_DEPTH
    cap = s.plies_cap * 2 if s.plies_cap else 16
    while cap <= ply:
        cap *= 2
    if cap > PE_MAX_PLIES:
        cap = PE_MAX_PLIES
    per = ps_per_ply(s)
    while True:  # claim the bytes first (workers grow their stacks concurrently)
        total = fs_load_size(&sh.stack_total)
        if (total - s.stack_bytes + cap * per + fs_load_size(&sh.table.nslots) * sh.table.stride
                + fs_load_size(&sh.wtable.nslots) * sh.wtable.stride > sh.cap_bytes):
            return ERR_BUDGET
        if fs_cas_size(&sh.stack_total, total, total - s.stack_bytes + cap * per):
            break
    states = <char*>realloc(s.states, cap * s.state_stride)
    if states == NULL:
        return ERR_NOMEM
    s.states = states
    frames = <PFrame*>realloc(s.frames, cap * sizeof(PFrame))
    if frames == NULL:
        return ERR_NOMEM
    s.frames = frames
    if s.sh.nthreads > 1:
        ivals = <double*>realloc(s.ivals, cap * 2 * KERNEL_MAX_ACTIONS * sizeof(double))
        if ivals == NULL:
            return ERR_NOMEM
        s.ivals = ivals
    s.plies_cap = cap
    s.stack_bytes = cap * per
    return OK


cdef void ps_free(PSearch* s) noexcept nogil:
    free_clear(<void**>&s.states)
    free_clear(<void**>&s.frames)
    free_clear(<void**>&s.ivals)
    if s.sh != NULL:
        s.sh.stack_total -= s.stack_bytes
    s.stack_bytes = 0
    s.plies_cap = 0


cdef inline char* ps_state(PSearch* s, size_t ply) noexcept nogil:
    return s.states + ply * s.state_stride


cdef inline int ps_moves(PSearch* s, const char* state, int player, PFrame* f) noexcept nogil:
    """Fill the frame with the mover's legal actions at ``state`` (at a chance node its outcomes
    and their probabilities): their number, or minus ``ERR_NO_ACTIONS`` or ``ERR_TOO_MANY``."""
    cdef int n
    if player == KERNEL_CHANCE:
        n = s.vt.chance_outcomes(s.game, state, f.actions, f.probs)
    else:
        n = s.vt.legal_actions(s.game, state, f.actions)
    if n <= 0:
        return -ERR_NO_ACTIONS
    if n > KERNEL_MAX_ACTIONS:
        return -ERR_TOO_MANY
    return n


cdef inline void ps_key(PSearch* s, const char* state, unsigned char* key) noexcept nogil:
    if s.vt.pack != NULL:
        s.vt.pack(s.game, state, key)
    else:
        memcpy(key, state, s.state_size)


cdef inline bint ps_other_inside(PSearch* s, size_t ply, uint64_t mark) noexcept nogil:
    """Is another worker searching the chance outcome ``mark`` at this ply?"""
    cdef int w
    for w in range(s.sh.nthreads):
        if w != s.tid and fs_load_u64(&s.sh.paths[w * PE_MAX_PLIES + ply]) == mark:
            return True
    return False


cdef inline int ps_terminal(PSearch* s, const char* state, double* v) noexcept nogil:
    """Player 0's return at a terminal ``state``; a two-player game's returns must add up to
    L + U (the constant-sum promise the minimising player rests on)."""
    cdef double r[MAX_PLAYERS]
    s.vt.returns(s.game, state, r)
    v[0] = r[0]
    if s.two_player and fabs(r[0] + r[1] - (s.lo_bound + s.hi_bound)) > CONSTANT_SUM_EPS:
        return ERR_NOT_CONSTANT_SUM
    return OK


cdef inline int ps_child(PSearch* s, size_t ply, int i, double alpha, double beta, int32_t depth,
                         double* lo_out, double* hi_out) noexcept nogil:
    """Search the state after the ``i``-th action of the frame at ``ply`` (copied to ``ply + 1``)
    within (alpha, beta), one ply shallower (a negative ``depth``: no limit). The frames may move
    (``ps_reserve``): the caller takes ``&s.frames[ply]`` again after."""
    cdef int best
    cdef char* child = ps_state(s, ply + 1)
    memcpy(child, ps_state(s, ply), s.state_size)
    s.vt.apply_action(s.game, child, s.frames[ply].actions[i])
    return psearch(s, ply + 1, alpha, beta, depth - 1 if depth > 0 else depth, lo_out, hi_out,
                   &best)


cdef int psearch(PSearch* s, size_t ply, double alpha, double beta, int32_t depth,
                 double* lo_out, double* hi_out, int* best_out) noexcept nogil:
    """The interval of the state at ``ply`` within the window (alpha, beta); see above."""
    cdef const KernelVTable* vt = s.vt
    cdef char* state = ps_state(s, ply)
    cdef char* child
    cdef PFrame* f
    cdef int err, n, i, j, k, player, best = -1, tmp_a, stored_best = -1, left, rounds
    cdef uint64_t node_mark, mark
    cdef int64_t before
    cdef double L = s.lo_bound, U = s.hi_bound
    cdef double elo = L, ehi = U, lo, hi, clo, chi, known_lo, known_hi, a, b, p, tmp_h, top, v
    cdef double rest
    cdef double* iv
    cdef bint memo, have = False, complete
    if vt.is_terminal(s.game, state):
        err = ps_terminal(s, state, &v)
        lo_out[0] = v
        hi_out[0] = v
        best_out[0] = -1
        return err
    if depth == 0:
        lo_out[0] = L
        hi_out[0] = U
        best_out[0] = -1
        return OK
    if alpha < L:  # the window never needs to reach past the utility range
        alpha = L
    if beta > U:
        beta = U
    err = ps_reserve(s, ply + 1)
    if err != OK:
        return err
    state = ps_state(s, ply)
    f = &s.frames[ply]
    player = vt.current_player(s.game, state)
    memo = player == KERNEL_CHANCE or not s.memo_chance_only
    if memo:
        ps_key(s, state, f.key)
        if pt_probe(&s.sh.table, &s.tc, f.key, &elo, &ehi, &stored_best):
            if elo >= ehi or ehi <= alpha or elo >= beta:
                lo_out[0] = elo
                hi_out[0] = ehi
                best_out[0] = stored_best
                return OK
            if elo > alpha:
                alpha = elo
            if ehi < beta:
                beta = ehi
    s.expanded += 1
    if s.node_budget >= 0 and s.expanded > s.node_budget:
        return ERR_WBUDGET
    if (s.expanded & (CLOCK_EVERY - 1)) == 0 and _past(s.sh.deadline, &s.sh.halt):
        return ERR_DEADLINE
    if s.abandon != NULL and (fs_load_u8(s.abandon) or fs_load_u8(&s.sh.stop)):
        return ERR_ABANDONED
    before = s.expanded
    n = ps_moves(s, state, player, f)
    if n < 0:
        return -n
    child = ps_state(s, ply + 1)
    if player == KERNEL_CHANCE and s.sh.paths == NULL:
        f.suffix[n] = 0.0
        for i in range(n - 1, -1, -1):
            f.suffix[i] = f.suffix[i + 1] + f.probs[i]
        known_lo = 0.0
        known_hi = 0.0
        lo = L
        hi = U
        for i in range(n):
            f = &s.frames[ply]
            p = f.probs[i]
            a = (alpha - known_hi - f.suffix[i + 1] * U) / p
            b = (beta - known_lo - f.suffix[i + 1] * L) / p
            err = ps_child(s, ply, i, a, b, depth, &clo, &chi)
            if err != OK:
                return err
            f = &s.frames[ply]
            known_lo += p * clo
            known_hi += p * chi
            lo = known_lo + f.suffix[i + 1] * L
            hi = known_hi + f.suffix[i + 1] * U
            if hi <= alpha or lo >= beta:
                break
    elif player == KERNEL_CHANCE:
        # threads: an outcome another worker is searching now is deferred to a second pass (by
        # then it is often in the table); Star1 uses the mass still unsearched, the exact value
        # sums in the kernel's order (the same rounding whoever searched what)
        for i in range(n):
            f.suffix[i] = 0.0  # 0: to search, 1: searched
        node_mark = key_hash(f.key, s.sh.table.key_size)  # (a chance node is always memoised)
        known_lo = 0.0
        known_hi = 0.0
        lo = L
        hi = U
        left = n
        complete = True
        for rounds in range(2):
            for i in range(n):
                f = &s.frames[ply]
                if f.suffix[i] != 0.0:
                    continue
                # the outcome's mark: this node's key and the outcome; another worker is in it
                # when its path holds the mark at the same ply (where workers that came down the
                # same line meet; one that came another way is not seen, only slower)
                mark = splitmix64_mix(node_mark + <uint64_t>i) | 1
                if rounds == 0 and i > 0 and ps_other_inside(s, ply, mark):
                    continue
                p = f.probs[i]
                rest = 0.0
                for k in range(n - 1, -1, -1):
                    if k != i and f.suffix[k] == 0.0:
                        rest += f.probs[k]
                a = (alpha - known_hi - rest * U) / p
                b = (beta - known_lo - rest * L) / p
                fs_store_u64(&s.sh.paths[s.tid * PE_MAX_PLIES + ply], mark)
                err = ps_child(s, ply, i, a, b, depth, &clo, &chi)
                fs_store_u64(&s.sh.paths[s.tid * PE_MAX_PLIES + ply], 0)
                if err != OK:
                    return err
                f = &s.frames[ply]
                f.suffix[i] = 1.0
                left -= 1
                iv = s.ivals + ply * 2 * KERNEL_MAX_ACTIONS
                iv[2 * i] = clo
                iv[2 * i + 1] = chi
                known_lo += p * clo
                known_hi += p * chi
                lo = known_lo + rest * L
                hi = known_hi + rest * U
                if hi <= alpha or lo >= beta:
                    complete = left == 0
                    break
            if left == 0 or hi <= alpha or lo >= beta:
                break
        f = &s.frames[ply]
        if complete:
            iv = s.ivals + ply * 2 * KERNEL_MAX_ACTIONS
            lo = 0.0
            hi = 0.0
            for i in range(n):
                lo += f.probs[i] * iv[2 * i]
                hi += f.probs[i] * iv[2 * i + 1]
    if player == KERNEL_CHANCE:
        top = -1.0
        for i in range(n):  # the principal variation's outcome: the likeliest (first of equals)
            if f.probs[i] > top:
                top = f.probs[i]
                best = f.actions[i]
    else:
        # move ordering: the table's best move first, then the heuristic (the mover's), then the
        # action id
        if s.order and vt.heuristic != NULL:
            for i in range(n):
                memcpy(child, state, s.state_size)
                vt.apply_action(s.game, child, f.actions[i])
                f.suffix[i] = (2.0 if f.actions[i] == stored_best
                               else vt.heuristic(s.game, child, player))
            for i in range(1, n):
                j = i
                while j > 0 and f.suffix[j - 1] < f.suffix[j]:
                    tmp_h = f.suffix[j]
                    f.suffix[j] = f.suffix[j - 1]
                    f.suffix[j - 1] = tmp_h
                    tmp_a = f.actions[j]
                    f.actions[j] = f.actions[j - 1]
                    f.actions[j - 1] = tmp_a
                    j -= 1
        if player == 0:
            lo = L
            hi = L
            for i in range(n):
                a = alpha if alpha > lo else lo
                err = ps_child(s, ply, i, a, beta, depth, &clo, &chi)
                if err != OK:
                    return err
                f = &s.frames[ply]
                if not have or chi > hi:
                    hi = chi
                if not have or clo > lo:
                    lo = clo
                    best = f.actions[i]
                have = True
                if lo >= beta:
                    if i + 1 < n:
                        hi = U
                    break
        else:  # player 1 of a constant-sum game: the mirror image, minimising player 0's value
            lo = U
            hi = U
            for i in range(n):
                b = beta if beta < hi else hi
                err = ps_child(s, ply, i, alpha, b, depth, &clo, &chi)
                if err != OK:
                    return err
                f = &s.frames[ply]
                if not have or clo < lo:
                    lo = clo
                if not have or chi < hi:
                    hi = chi
                    best = f.actions[i]
                have = True
                if hi <= alpha:
                    if i + 1 < n:
                        lo = L
                    break
    # merge with what the table knew, then store
    if elo > lo:
        lo = elo
    if ehi < hi:
        hi = ehi
    if lo > hi:  # rounding: the two bounds crossed by an ulp
        hi = lo
    if memo:
        f = &s.frames[ply]
        pt_store(&s.sh.table, &s.tc, f.key, lo, hi, best, work_of(s.expanded - before + 1), ps_room(s))
    lo_out[0] = lo
    hi_out[0] = hi
    best_out[0] = best
    return OK
cdef int exact_at(PSearch* s, size_t ply, double* v, int* best) noexcept nogil:
    """The exact value of the state at ``ply`` (re-searching if rounding left a gap)."""
    cdef double lo, hi, lo2, hi2
    cdef int err, k, b2
    err = psearch(s, ply, s.lo_bound, s.hi_bound, -1, &lo, &hi, best)
    if err != OK:
        return err
    for k in range(8):
        if hi - lo <= PRUNE_EXACT_EPS:
            break
        err = psearch(s, ply, lo, hi, -1, &lo2, &hi2, &b2)
        if err != OK:
            return err
        if lo2 > lo:
            lo = lo2
        if hi2 < hi:
            hi = hi2
    if hi - lo > 1e-9:
        return ERR_INEXACT
    v[0] = lo
    return OK


cdef int pfastest(PSearch* s, size_t ply, double* w_out, double* v_out, int* best_out) noexcept nogil:
    """The fastest-win pass: the value, the win-weighted length under the tie-break, the move.

    Among the moves whose value is the node's (within ``VALUE_EPS``) the one with the smaller
    win-weighted length ``E[plies x return]`` is chosen, then the lower action id: the plain
    search's tie-break, computed over the optimal moves only.
    """
    cdef const KernelVTable* vt = s.vt
    cdef char* state = ps_state(s, ply)
    cdef char* child
    cdef PFrame* f
    cdef int err, n, i, player, best = -1, j
    cdef int64_t before
    cdef double V, W, cv, cw, wp, clo, chi, top, bv, bw
    cdef double r[MAX_PLAYERS]
    cdef bint have = False
    if vt.is_terminal(s.game, state):
        vt.returns(s.game, state, r)
        w_out[0] = 0.0
        v_out[0] = r[0]
        best_out[0] = -1
        return OK
    err = ps_reserve(s, ply + 1)
    if err != OK:
        return err
    state = ps_state(s, ply)
    f = &s.frames[ply]
    ps_key(s, state, f.key)
    if pt_probe(&s.sh.wtable, &s.tc, f.key, w_out, v_out, best_out):
        return OK
    if s.wbudget >= 0 and s.expanded + s.wexpanded > s.wbudget:
        return ERR_WBUDGET
    err = exact_at(s, ply, &V, &j)
    if err != OK:
        return err
    s.wexpanded += 1
    if s.wbudget >= 0 and s.expanded + s.wexpanded > s.wbudget:
        return ERR_WBUDGET
    if (s.wexpanded & (CLOCK_EVERY - 1)) == 0 and _past(s.sh.deadline, &s.sh.halt):
        return ERR_DEADLINE
    before = s.expanded + s.wexpanded
    state = ps_state(s, ply)
    f = &s.frames[ply]
    player = vt.current_player(s.game, state)
    n = ps_moves(s, state, player, f)
    if n < 0:
        return -n
    child = ps_state(s, ply + 1)
    W = 0.0
    if player == KERNEL_CHANCE:
        top = -1.0
        for i in range(n):
            if f.probs[i] > top:
                top = f.probs[i]
                best = f.actions[i]
        if not (s.lo_bound >= 0.0 and V <= 0.0):  # a value-0 node has W = 0 (returns >= 0)
            for i in range(n):
                f = &s.frames[ply]
                child = ps_state(s, ply + 1)
                memcpy(child, ps_state(s, ply), s.state_size)
                vt.apply_action(s.game, child, f.actions[i])
                err = pfastest(s, ply + 1, &cw, &cv, &j)
                if err != OK:
                    return err
                f = &s.frames[ply]
                W += f.probs[i] * (cw + cv)
    else:
        bv = 0.0
        bw = 0.0
        for i in range(n):
            f = &s.frames[ply]
            child = ps_state(s, ply + 1)
            memcpy(child, ps_state(s, ply), s.state_size)
            vt.apply_action(s.game, child, f.actions[i])
            if s.lo_bound >= 0.0 and V <= 0.0:
                best = f.actions[0]  # every move is worth 0 and wins never: the lowest id
                break
            # is this move optimal (within VALUE_EPS)? a narrow window tells, exactly if so
            err = psearch(s, ply + 1, V - VALUE_EPS, V + VALUE_EPS, -1, &clo, &chi, &j)
            if err != OK:
                return err
            if chi <= V - VALUE_EPS:
                continue
            if clo < chi:  # rounding at the window's edge: settle the value
                err = exact_at(s, ply + 1, &cv, &j)
                if err != OK:
                    return err
            else:
                cv = clo
            if cv < V - VALUE_EPS:
                continue
            err = pfastest(s, ply + 1, &cw, &cv, &j)
            if err != OK:
                return err
            f = &s.frames[ply]
            wp = cw + cv
            if (not have or cv > bv + VALUE_EPS
                    or (fabs(cv - bv) <= VALUE_EPS and wp < bw - PLIES_EPS)):
                bv = cv
                bw = wp
                best = f.actions[i]
                have = True
        W = bw if have else 0.0
    f = &s.frames[ply]
    pt_store(&s.sh.wtable, &s.tc, f.key, W, V, best, work_of(s.expanded + s.wexpanded - before + 1),
             ps_room(s))
    w_out[0] = W
    v_out[0] = V
    best_out[0] = best
    return OK




cdef int solve_tasks(PSearch* s, const char* tasks, size_t n, size_t first, unsigned char* done,
                     double* values, unsigned char* mine) noexcept nogil:
    """One worker's share of a parallel solve: the exact value of every task not yet done, from
    task ``first`` on (wrapping). A task another worker finishes meanwhile is left at once."""
    cdef size_t k, i
    cdef double v
    cdef int err, best
    for k in range(n):
        i = (first + k) % n
        if fs_load_u8(&done[i]) or fs_load_u8(&s.sh.stop):
            continue
        memcpy(ps_state(s, 0), tasks + i * s.state_stride, s.state_size)
        s.abandon = &done[i]
        err = exact_at(s, 0, &v, &best)
        s.abandon = NULL
        if err == ERR_ABANDONED:
            continue
        if err != OK:
            if err != ERR_WBUDGET:  # the node budget stops this worker only
                fs_store_u8(&s.sh.stop, 1)
            return err
        values[i] = v
        mine[i] = 1
        fs_store_u8(&done[i], 1)
    return OK


def pruning_supported(game):
    """Whether the pruning search takes this kernel game: a declared utility range and one
    player, or two players of a game that declares itself constant-sum (``game.constant_sum``)."""
    cdef const KernelHandle* handle = handle_from_capsule(game._kernel_handle())
    cdef const KernelVTable* vt = handle.vtable
    if vt == NULL or not vt.utility_min < vt.utility_max or vt.max_actions > KERNEL_MAX_ACTIONS:
        return False
    if not (vt.pack != NULL or vt.state_size <= PE_KEY_MAX):
        return False
    return vt.num_players == 1 or (vt.num_players == 2 and getattr(game, "constant_sum", False) is True)


cdef class PruningSearch:
    """The pruning exact search over one kernel game, with its bounds table.

    ``PruningSearch(game, memory_bytes, memo="chance", order=True, hash_bits=64, threads=1)``:
    ``memo`` is ``"all"`` (store every node) or ``"chance"`` (chance nodes only: turn starts and
    shouts); ``order`` sorts moves by the kernel heuristic; ``hash_bits`` narrows the key hash
    (tests); ``threads`` workers share the tables (see :meth:`values`).
    The tables and the search stacks never grow past ``memory_bytes`` (the fastest-win table
    takes at most a quarter, and room for the stacks to double is kept free); once full, new
    entries replace the bucket's entry with the least work below it, so a small cap costs
    re-search, not the answer. A cap too small for the minimal tables and the search stack
    raises ``SearchBudgetError``. One search at a time per object (the GIL is released).

    Two-player kernels are searched as constant-sum games: player 0 maximises its return,
    player 1 minimises it; a terminal whose returns do not add up to ``utility_min +
    utility_max`` stops the search with ``SolverError``. The fastest-win pass is one-player only.
    """

    cdef PShared sh
    cdef PSearch s             # worker 0: value(), interval(), fastest() and the first of values()
    cdef PSearch* helpers      # workers 1 .. threads - 1
    cdef int nthreads
    cdef readonly object game  # the game searched (kept alive while its kernel is in use)
    cdef object _capsule
    cdef bint _busy
    cdef bint _ready

    def __cinit__(self):
        self.nthreads = 1  # (the C fields start zeroed)

    def __init__(self, game, memory_bytes, *, memo="chance", order=True, hash_bits=64,
                 threads=1):
        from solver.errors import OptionError

        capsule = game._kernel_handle()
        cdef const KernelHandle* handle = handle_from_capsule(capsule)
        cdef const KernelVTable* vt = handle.vtable
        if self._ready:
            raise RuntimeError("PruningSearch is already initialised")
        if vt != NULL and vt.max_actions > KERNEL_MAX_ACTIONS:
            raise OptionError(f"the kernel's max_actions {vt.max_actions} exceeds "
                              f"KERNEL_MAX_ACTIONS {KERNEL_MAX_ACTIONS}")
        if not pruning_supported(game):
            raise OptionError("the pruning search needs a kernel that declares its utility range "
                              "(vtable.utility_min < utility_max) with one player, or two players "
                              "and game.constant_sum = True")
        if memo not in ("all", "chance"):
            raise OptionError(f"memo must be 'all' or 'chance', not {memo!r}")
        if not 0 <= hash_bits <= 64:
            raise OptionError(f"hash_bits must be in 0..64, not {hash_bits}")
        if memory_bytes < 1:
            raise OptionError(f"memory_bytes must be positive, not {memory_bytes}")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= PE_MAX_THREADS:
            raise OptionError(f"threads must be a whole number from 1 to {PE_MAX_THREADS}, "
                              f"not {threads!r}")
        self.game = game
        self._capsule = capsule
        self.nthreads = threads
        self.sh.cap_bytes = <size_t>memory_bytes
        self.sh.nthreads = threads
        self.s.sh = &self.sh
        self.s.vt = vt
        self.s.game = handle.game
        self.s.state_size = vt.state_size
        self.s.state_stride = (vt.state_size + 7) & ~(<size_t>7)
        self.s.lo_bound = vt.utility_min
        self.s.hi_bound = vt.utility_max
        self.s.memo_chance_only = memo == "chance"
        self.s.order = bool(order)
        self.s.two_player = vt.num_players == 2
        self.s.wbudget = -1
        self.s.node_budget = -1
        cdef size_t key_size = vt.pack(handle.game, NULL, NULL) if vt.pack != NULL else vt.state_size
        cdef int k
        if key_size > PE_KEY_MAX or key_size == 0:
            raise OptionError(f"the kernel's key is {key_size} bytes; the pruning search takes "
                              f"1 to {PE_KEY_MAX}")
        # the bounds table may take all the room the stacks leave, the fastest-win table a quarter
        cdef int err = pt_init(&self.sh.table, key_size, self.sh.cap_bytes, threads)
        if err == OK:
            # (only worker 0 runs the fastest-win pass, one search at a time: no locks)
            err = pt_init(&self.sh.wtable, key_size, self.sh.cap_bytes // 4, 1)
        if err == OK:
            err = ps_reserve(&self.s, 0)
        if err == OK and threads > 1:
            self.sh.paths = <unsigned long long*>malloc(threads * PE_MAX_PLIES * 8)
            if self.sh.paths == NULL:
                err = ERR_NOMEM
            else:
                memset(self.sh.paths, 0, threads * PE_MAX_PLIES * 8)
                # the threads' bookkeeping (presence flags, marks) counts against the cap too
                self.sh.stack_total += threads * (PE_LINE + PE_MAX_PLIES * 8)
                if (self.sh.stack_total + self.sh.table.nslots * self.sh.table.stride
                        + self.sh.wtable.nslots * self.sh.wtable.stride > self.sh.cap_bytes):
                    err = ERR_BUDGET
        if err == OK and threads > 1:
            self.helpers = <PSearch*>malloc((threads - 1) * sizeof(PSearch))
            if self.helpers == NULL:
                err = ERR_NOMEM
            else:
                for k in range(threads - 1):
                    memcpy(&self.helpers[k], &self.s, sizeof(PSearch))
                    self.helpers[k].tid = k + 1
                    self.helpers[k].tc.me = k + 1
                    self.helpers[k].tc.added = 0
                    self.helpers[k].tc.replaced = 0
                    self.helpers[k].states = NULL
                    self.helpers[k].frames = NULL
                    self.helpers[k].ivals = NULL
                    self.helpers[k].plies_cap = 0
                    self.helpers[k].stack_bytes = 0
                    self.helpers[k].expanded = 0
                    self.helpers[k].wexpanded = 0
                for k in range(threads - 1):
                    if err == OK:
                        err = ps_reserve(&self.helpers[k], 0)
                self.sh.table.callers[0] = &self.s.tc
                for k in range(threads - 1):
                    self.sh.table.callers[k + 1] = &self.helpers[k].tc
        if err == OK and hash_bits < 64:
            self.sh.table.hash_mask = ((<uint64_t>1) << <int>hash_bits) - 1
            self.sh.wtable.hash_mask = self.sh.table.hash_mask
        if err != OK:
            self._raise(err)  # what was allocated goes with the object, at once
        self._ready = True

    def __dealloc__(self):
        cdef int k
        if self.helpers != NULL:
            for k in range(self.nthreads - 1):
                ps_free(&self.helpers[k])
            free(self.helpers)
        ps_free(&self.s)
        free(self.sh.paths)
        pt_free(&self.sh.table)
        pt_free(&self.sh.wtable)

    cdef PSearch* _worker(self, int t) noexcept:
        return &self.s if t == 0 else &self.helpers[t - 1]

    cdef _raise(self, int err):
        from solver.errors import SearchBudgetError, SolverError

        if err == ERR_BUDGET:
            raise SearchBudgetError(
                f"the pruning expectimax needs more than its memory cap of "
                f"{self.sh.cap_bytes / 1048576:.4g} MB ({self.sh.cap_bytes} bytes) for its minimal "
                f"tables and search stack; raise the cap with memory_mb=",
                cap_bytes=self.sh.cap_bytes, entries=pt_count(&self.sh.table),
            )
        if err == ERR_NOMEM:
            raise MemoryError("the pruning expectimax could not allocate memory")
        _raise_game_error(err, "the pruning expectimax", PE_MAX_PLIES)
        if err == ERR_INEXACT:
            raise SolverError("the pruning expectimax could not close its bounds (rounding)")
        if err == ERR_DEADLINE:
            raise _deadline_error(self.sh.deadline, self.sh.halt, pt_count(&self.sh.table))
        if err == ERR_NOT_CONSTANT_SUM:
            raise SolverError(
                f"a terminal's returns do not add up to utility_min + utility_max = "
                f"{self.s.lo_bound + self.s.hi_bound:g}: the two-player pruning search needs a "
                "constant-sum game")
        raise SolverError(f"the pruning expectimax failed with status {err}")

    def set_deadline(self, deadline):
        """Stop every later search at ``deadline`` (a ``time.monotonic()`` value; None: never)
        with ``SearchTimeoutError``; what the tables hold stays valid. Clears ``stop()``."""
        self.sh.deadline = 0.0 if deadline is None else max(1e-9, float(deadline))
        self.sh.halt = 0

    def stop(self):
        """Make the running search (called from another thread: every worker) and later ones
        stop soon, with ``SearchTimeoutError``, until :meth:`set_deadline` is called again."""
        self.sh.halt = 1

    cdef int _load(self, object state) except -1:
        if not self._ready:
            raise RuntimeError("PruningSearch is not initialised")
        if self._busy:
            raise RuntimeError("this PruningSearch is already searching (one search at a time)")
        cdef const void* ptr = _state_pointer(state)
        memcpy(ps_state(&self.s, 0), ptr, self.s.state_size)
        return 0

    cdef int _run(self, int search, double alpha, double beta, int32_t depth, double* a_out,
                  double* b_out, int* best_out) except -1:
        """Worker 0's search of the loaded root, without the GIL and the object busy meanwhile:
        ``RUN_VALUE`` (``exact_at``: the value in ``a_out``), ``RUN_INTERVAL`` (``psearch`` with
        the window and depth: lo, hi) or ``RUN_FASTEST`` (``pfastest``: W, V). 1 when its node
        budget ran out, else 0; any other failure raises. Both budgets are off after."""
        cdef int err
        self._busy = True
        try:
            with nogil:
                if search == RUN_VALUE:
                    err = exact_at(&self.s, 0, a_out, best_out)
                elif search == RUN_INTERVAL:
                    err = psearch(&self.s, 0, alpha, beta, depth, a_out, b_out, best_out)
                else:
                    err = pfastest(&self.s, 0, a_out, b_out, best_out)
        finally:
            self._busy = False
            self.s.node_budget = -1
            self.s.wbudget = -1
        if err == ERR_WBUDGET:
            return 1
        if err != OK:
            self._raise(err)
        return 0

    def value(self, state, max_nodes=-1):
        """The exact value of ``state`` (player 0's; terminal states too); None when
        ``max_nodes`` ≥ 0 and the search expands more nodes than that."""
        self._load(state)
        cdef double v, unused
        cdef int best
        self.s.node_budget = -1 if max_nodes < 0 else self.s.expanded + int(max_nodes)
        if self._run(RUN_VALUE, 0.0, 0.0, -1, &v, &unused, &best):
            return None
        return v

    def values(self, states, max_nodes=-1):
        """The exact values of ``states`` (player 0's) by every worker at once: a list, None for
        a state no worker solved within ``max_nodes`` nodes of its own (≥ 0; -1: no limit).

        Worker ``t`` of ``T`` takes the states from the ``t * n / T``-th on, wrapping, skips those
        another worker has finished and leaves a state as soon as another worker finishes it; all
        share the bounds table, so a worker reuses what the others proved, and worker ``t > 0``
        visits each chance node's outcomes from the ``t * n / T``-th on so that workers meeting in
        one subtree split it. The values do not depend on which worker found them (exact, summed
        in the kernel's order); the node counts vary from run to run with more than one thread.
        """
        import threading

        if not self._ready:
            raise RuntimeError("PruningSearch is not initialised")
        if self._busy:
            raise RuntimeError("this PruningSearch is already searching (one search at a time)")
        cdef size_t n = len(states), i
        cdef size_t stride = self.s.state_stride
        cdef int T = self.nthreads, t
        if n == 0:
            return []
        cdef char* tasks = <char*>malloc(n * stride)
        cdef unsigned char* done = <unsigned char*>malloc(n * (1 + T))
        cdef double* vals = <double*>malloc(n * T * sizeof(double))
        cdef int* errs = <int*>malloc(T * sizeof(int))
        if tasks == NULL or done == NULL or vals == NULL or errs == NULL:
            free(tasks)
            free(done)
            free(vals)
            free(errs)
            raise MemoryError("the pruning expectimax could not allocate its task list")
        memset(tasks, 0, n * stride)
        memset(done, 0, n * (1 + T))
        for i in range(n):
            memcpy(tasks + i * stride, _state_pointer(states[i]), self.s.state_size)
        cdef PSearch* w
        for t in range(T):
            w = self._worker(t)
            w.node_budget = -1 if max_nodes < 0 else w.expanded + int(max_nodes)
            errs[t] = OK
        self.sh.stop = 0
        cdef size_t addr_tasks = <size_t>tasks, addr_done = <size_t>done, addr_vals = <size_t>vals
        cdef size_t addr_errs = <size_t>errs

        def run(int tid):
            cdef PSearch* ws = self._worker(tid)
            cdef size_t first = 0  # every worker in the kernel's order: they part at chance nodes
            cdef int e
            with nogil:
                e = solve_tasks(ws, <const char*>addr_tasks, n, first, <unsigned char*>addr_done,
                                (<double*>addr_vals) + tid * n,
                                (<unsigned char*>addr_done) + (1 + tid) * n)
            (<int*>addr_errs)[tid] = e

        self._busy = True
        try:
            pool = [threading.Thread(target=run, args=(t,)) for t in range(1, T)]
            for thread in pool:
                thread.start()
            run(0)
            for thread in pool:
                thread.join()
            out = []
            for i in range(n):
                value = None
                for t in range(T):  # the lowest worker that solved it
                    if done[(1 + t) * n + i]:
                        value = vals[t * n + i]
                        break
                out.append(value)
            failed = [errs[t] for t in range(T) if errs[t] not in (OK, ERR_WBUDGET)]
        finally:
            self._busy = False
            for t in range(T):
                self._worker(t).node_budget = -1
            free(tasks)
            free(done)
            free(vals)
            free(errs)
        if failed:
            self._raise(failed[0])
        return out

    def interval(self, state, depth=-1, alpha=None, beta=None, max_nodes=-1):
        """``(lo, hi)`` holding the value of ``state``: one search with the window (alpha, beta)
        (default: the utility range) and ``depth`` plies (-1: no limit; nodes below are only
        known to lie in the utility range). A proven interval however the search was cut.
        None when ``max_nodes`` ≥ 0 and the search expands more nodes than that."""
        self._load(state)
        self.s.node_budget = -1 if max_nodes < 0 else self.s.expanded + int(max_nodes)
        cdef double lo, hi
        cdef double a = self.s.lo_bound if alpha is None else float(alpha)
        cdef double b = self.s.hi_bound if beta is None else float(beta)
        cdef int best
        if self._run(RUN_INTERVAL, a, b, <int32_t>depth, &lo, &hi, &best):
            return None
        return lo, hi

    def fastest(self, state, budget=-1):
        """``(value, win-weighted length, best action)`` of ``state`` under the tie-break; the
        action is the likeliest outcome at a chance node, -1 at a terminal. With ``budget`` ≥ 0
        the pass expands at most that many new nodes and returns None past it (what it stored
        stays valid). One-player kernels only."""
        from solver.errors import OptionError

        if self.s.two_player:
            raise OptionError("the fastest-win pass is for one-player kernels")
        self._load(state)
        self.s.wbudget = -1 if budget < 0 else self.s.expanded + self.s.wexpanded + int(budget)
        cdef double v, w
        cdef int best
        if self._run(RUN_FASTEST, 0.0, 0.0, -1, &w, &v, &best):
            return None
        return v, w, best

    @property
    def threads(self):
        return self.nthreads

    @property
    def num_players(self):
        return 2 if self.s.two_player else 1

    @property
    def utility_range(self):
        """``(utility_min, utility_max)``: the kernel's declared range."""
        return self.s.lo_bound, self.s.hi_bound

    @property
    def expanded(self):
        """Nodes expanded by every search so far (the bounds search and the fastest-win pass,
        every worker)."""
        cdef int t
        total = 0
        for t in range(self.nthreads):
            total += self._worker(t).expanded + self._worker(t).wexpanded
        return total

    @property
    def worker_expanded(self):
        """Nodes expanded so far by each worker (a list, worker 0 first)."""
        return [self._worker(t).expanded + self._worker(t).wexpanded for t in range(self.nthreads)]

    @property
    def entries(self):
        """Entries held (bounds table and fastest-win table)."""
        return pt_count(&self.sh.table) + pt_count(&self.sh.wtable)

    @property
    def replaced(self):
        """Entries overwritten by another key (the table was full)."""
        return pt_replaced(&self.sh.table) + pt_replaced(&self.sh.wtable)

    @property
    def entry_size(self):
        """Bytes per entry: the bounds, the best move, a work count, a flag and the packed key."""
        return self.sh.table.stride

    @property
    def key_size(self):
        return self.sh.table.key_size

    @property
    def bytes(self):
        """Bytes allocated now: both tables and every worker's search stack."""
        return (self.sh.table.nslots * self.sh.table.stride
                + self.sh.wtable.nslots * self.sh.wtable.stride + self.sh.stack_total)

    @property
    def cap_bytes(self):
        return self.sh.cap_bytes
