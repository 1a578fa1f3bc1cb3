# cython: language_level=3
"""SplitMix64, the library's one pseudo-random generator, for C loops (``nogil``, inline).

The same stream as ``solver/rng.py`` (the Python twin; ``tests/ext/test_rng.py`` holds the two
to the same numbers). The generator's whole state is one ``uint64_t`` the caller owns, so a loop
seeds it with the search's seed and nothing is shared between searches or threads.

* ``splitmix64_next``: add the golden gamma ``0x9E3779B97F4A7C15`` to the state, then mix it.
* ``splitmix64_mix``: the finaliser alone (two xor-shift-multiply rounds and a last xor-shift);
  it also spreads kernel hashes over hash-table slots.
* ``splitmix64_uniform``: a double in [0, 1): ``(next >> 11) * 2**-53``.
* ``splitmix64_below``: an index below ``k`` (0 < k < 2**31): ``((next >> 32) * k) >> 32``.

The chance draw, the twin of ``solver.rng.weighted_index`` / ``sample_outcome`` (the same sums
in the same order, so both pick the same outcome for the same seed; ``tests/ext/test_rng.py``):

* ``weighted_index``: the index a uniform ``u`` picks among ``n`` probabilities: the first whose
  running total exceeds ``u``, else the last (rounding);
* ``weighted_index_strided``: the same over probabilities ``stride`` bytes apart (a field of an
  array of structs, as MCTS's nodes);
* ``sample_outcome``: a chance outcome of ``(actions, probs)`` with one ``splitmix64_uniform``.

Every compiled chance draw goes through these (the searchers' ``leaf.pxd`` and selection, the
kernels' playout loop).
"""

from libc.stdint cimport uint64_t


cdef inline uint64_t splitmix64_mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64_next(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    return splitmix64_mix(state[0])


cdef inline double splitmix64_uniform(uint64_t* state) noexcept nogil:
    return <double>(splitmix64_next(state) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int splitmix64_below(uint64_t* state, int k) noexcept nogil:
    return <int>(((splitmix64_next(state) >> 32) * <uint64_t>k) >> 32)


cdef inline int weighted_index_strided(const char* first, size_t stride, int n,
                                       double u) noexcept nogil:
    # ``first`` points at the first probability (a double), the next ``stride`` bytes on.
    cdef double total = 0.0
    cdef int k
    for k in range(n):
        total += (<const double*>(first + k * stride))[0]
        if u < total:
            return k
    return n - 1


cdef inline int weighted_index(const double* probs, int n, double u) noexcept nogil:
    return weighted_index_strided(<const char*>probs, sizeof(double), n, u)


cdef inline int sample_outcome(const int* actions, const double* probs, int n,
                               uint64_t* state) noexcept nogil:
    # ``n`` > 0 outcomes: the caller checks (a chance node without outcomes is its error).
    return actions[weighted_index(probs, n, splitmix64_uniform(state))]
