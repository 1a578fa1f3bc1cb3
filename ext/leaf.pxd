# cython: language_level=3
"""Leaf values and the one playout loop over ``KernelVTable``, shared by the compiled searchers
(MCTS, ISMCTS) and the kernels' ``random_playouts`` bench (``kernel_face.pxi``).

Inline ``nogil`` functions only: a searcher fills one ``LeafWork`` with its buffers and calls
``leaf_value`` on a non-terminal state. ``play_out`` is the playout loop every one of them runs
(chance by ``rng.pxd``'s ``sample_outcome``: ``u`` uniform, the first outcome whose running
probability exceeds it, else the last; decisions uniformly at random by ``below(n)``, or
heuristic-greedy). The evaluators, with the draws of ``rng.pxd``:

- ``LEAF_ROLLOUT``: ``rollouts`` games to the end by ``play_out``; the returns averaged (one
  game: its returns as they are);
- ``LEAF_HEURISTIC``: ``vtable.heuristic`` for every player;
- ``LEAF_GUIDED``: as rollout, but a decision takes the action whose successor has the highest
  heuristic for the mover (ties by reservoir sampling: the ``t``-th tying action replaces the
  pick when ``below(t) == 0``; one legal action: no draw);
- ``LEAF_MIXED``: the guided mean, then ``0.5 * (heuristic + guided)`` per player.

A searcher with a ``seconds`` budget sets ``LeafWork.deadline`` (the monotonic clock, ``now``):
the rollouts then look at the clock every ``LEAF_CHECK_EVERY`` games and stop once it has
passed, averaging the games played so far (at least one) and setting ``LeafWork.cut`` so the
searcher ends its search there. Without a deadline (0) or before it, nothing changes: the same
games, the same draws. Without this, one leaf of ``rollouts=10**6`` ran seconds past its budget.

The pure-Python twins are ``solver/search/evaluators.py``'s evaluators.
"""

from libc.math cimport INFINITY
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from rng cimport sample_outcome, splitmix64_below
from state cimport KERNEL_CHANCE, KERNEL_TERMINAL, KernelVTable

cdef enum:
    LEAF_ROLLOUT = 0
    LEAF_HEURISTIC = 1
    LEAF_GUIDED = 2
    LEAF_MIXED = 3

cdef enum:
    LEAF_OK = 0
    LEAF_NO_ACTIONS = 2        # a non-terminal state without actions or outcomes
    LEAF_TOO_MANY_ACTIONS = 3  # more than max_actions of them

cdef enum:
    LEAF_CHECK_EVERY = 16      # rollouts between two looks at the clock (a deadline is set)

ctypedef struct LeafWork:
    const KernelVTable* vt
    const void* game
    size_t state_size
    int num_players
    int max_actions            # entries of ``actions`` and ``probs``
    int* actions
    double* probs
    char* scratch              # the state a rollout plays on
    char* probe                # a guided decision's look one ply ahead
    double* acc                # num_players doubles: the rollouts' running sums
    double deadline            # ``now()`` after which rollouts stop (0: none)
    bint cut                   # set when the deadline cut a leaf's rollouts short


cdef inline double now() noexcept nogil:
    """Seconds on the monotonic clock."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <double>ts.tv_sec + <double>ts.tv_nsec * 1e-9


cdef inline LeafWork leaf_work(const KernelVTable* vt, const void* game, int max_actions,
                               int* actions, double* probs, char* scratch, char* probe,
                               double* acc) noexcept nogil:
    """A ``LeafWork`` over a searcher's buffers (``state_size`` and ``num_players`` from ``vt``)."""
    cdef LeafWork w
    w.vt = vt
    w.game = game
    w.state_size = vt.state_size
    w.num_players = vt.num_players
    w.max_actions = max_actions
    w.actions = actions
    w.probs = probs
    w.scratch = scratch
    w.probe = probe
    w.acc = acc
    w.deadline = 0.0
    w.cut = False
    return w


cdef inline int leaf_sample(const LeafWork* w, const void* state, uint64_t* rng,
                            int* action) noexcept nogil:
    """A chance outcome of ``state`` by its probability, into ``action``."""
    cdef int n = w.vt.chance_outcomes(w.game, state, w.actions, w.probs)
    if n <= 0:
        return LEAF_NO_ACTIONS
    if n > w.max_actions:
        return LEAF_TOO_MANY_ACTIONS
    action[0] = sample_outcome(w.actions, w.probs, n, rng)
    return LEAF_OK


cdef inline int play_out(const LeafWork* w, void* state, uint64_t* rng, bint guided,
                         long long* applied) noexcept nogil:
    """Play ``state`` in place to the end of the game, adding the actions applied to
    ``applied``: chance by its probabilities, decisions uniformly at random or (``guided``,
    which needs ``w.probe`` and ``vtable.heuristic``) heuristic-greedy. The one playout loop of
    the compiled code (MCTS's and ISMCTS's rollouts, the kernels' ``random_playouts``)."""
    cdef int player, n, k, action, ties
    cdef int err = LEAF_OK
    cdef long long steps = 0     # counted here, added once: ``applied`` may live in memory
    cdef double h, best_h
    while True:
        player = w.vt.current_player(w.game, state)
        if player == KERNEL_TERMINAL:
            break
        if player == KERNEL_CHANCE:
            err = leaf_sample(w, state, rng, &action)
            if err != LEAF_OK:
                break
        else:
            n = w.vt.legal_actions(w.game, state, w.actions)
            if n <= 0 or n > w.max_actions:
                err = LEAF_NO_ACTIONS if n <= 0 else LEAF_TOO_MANY_ACTIONS
                break
            if not guided:
                action = w.actions[splitmix64_below(rng, n)]
            elif n == 1:
                action = w.actions[0]
            else:
                action = w.actions[0]
                best_h = -INFINITY
                ties = 0
                for k in range(n):
                    memcpy(w.probe, state, w.state_size)
                    w.vt.apply_action(w.game, w.probe, w.actions[k])
                    h = w.vt.heuristic(w.game, w.probe, player)
                    if h > best_h:
                        best_h = h
                        action = w.actions[k]
                        ties = 1
                    elif h == best_h:
                        ties += 1
                        if splitmix64_below(rng, ties) == 0:
                            action = w.actions[k]
        w.vt.apply_action(w.game, state, action)
        steps += 1
    applied[0] += steps
    return err


cdef inline int leaf_rollout(const LeafWork* w, uint64_t* rng, double* out,
                             bint guided) noexcept nogil:
    """Play ``w.scratch`` to the end (``play_out``); its returns into ``out``."""
    cdef long long applied = 0
    cdef int err = play_out(w, w.scratch, rng, guided, &applied)
    if err == LEAF_OK:
        w.vt.returns(w.game, w.scratch, out)
    return err


cdef inline int leaf_value(LeafWork* w, const void* state, uint64_t* rng, int evaluator,
                           int rollouts, double* out) noexcept nogil:
    """The ``evaluator``'s value of the non-terminal ``state`` for every player, into ``out``
    (the heuristic evaluators need ``vtable.heuristic``: the caller checks). A passed
    ``w.deadline`` ends the rollouts early and sets ``w.cut`` (the module docstring)."""
    cdef int i, p, err
    cdef int played = rollouts
    cdef bint guided = evaluator == LEAF_GUIDED or evaluator == LEAF_MIXED
    if evaluator == LEAF_HEURISTIC:
        for p in range(w.num_players):
            out[p] = w.vt.heuristic(w.game, state, p)
        return LEAF_OK
    if rollouts == 1:
        memcpy(w.scratch, state, w.state_size)
        err = leaf_rollout(w, rng, out, guided)
        if err != LEAF_OK:
            return err
    else:
        for p in range(w.num_players):
            w.acc[p] = 0.0
        for i in range(rollouts):
            memcpy(w.scratch, state, w.state_size)
            err = leaf_rollout(w, rng, out, guided)
            if err != LEAF_OK:
                return err
            for p in range(w.num_players):
                w.acc[p] += out[p]
            if (w.deadline > 0.0 and (i + 1) % LEAF_CHECK_EVERY == 0 and i + 1 < rollouts
                    and now() >= w.deadline):
                played = i + 1
                w.cut = True
                break
        for p in range(w.num_players):
            out[p] = w.acc[p] / played
    if evaluator == LEAF_MIXED:
        for p in range(w.num_players):
            out[p] = 0.5 * (w.vt.heuristic(w.game, state, p) + out[p])
    return LEAF_OK
