# cython: language_level=3
"""Atomic loads, stores, exchanges and a spin lock for the compiled searchers' shared tables.

Portable across GCC/Clang (``__atomic`` builtins) and MSVC (``_Interlocked*``), inline C: the
pruning search's bounds table (``ext/pruning.pyx``) takes its buckets' locks and counts with these.
Ships in ``solver/include`` with the other ``.pxd`` files.
"""

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    #include <windows.h>
    static __inline void fs_lock(unsigned char* l) {
        int spins = 0;
        while (_InterlockedExchange8((volatile char*)l, 1)) {
            while (*(volatile unsigned char*)l) { if (++spins > 1000) { SwitchToThread(); spins = 0; } }
        }
    }
    static __inline void fs_unlock(unsigned char* l) { _InterlockedExchange8((volatile char*)l, 0); }
    static __inline size_t fs_load_size(size_t* p) { return *(volatile size_t*)p; }
    static __inline void fs_store_size(size_t* p, size_t v) { *(volatile size_t*)p = v; MemoryBarrier(); }
    static __inline int fs_cas_size(size_t* p, size_t expected, size_t v) {
        return (size_t)_InterlockedCompareExchange64((volatile __int64*)p, (__int64)v, (__int64)expected) == expected; }
    static __inline void fs_add_size(size_t* p, size_t d) {
        _InterlockedExchangeAdd64((volatile __int64*)p, (__int64)d); }
    static __inline void fs_add_i64(long long* p, long long d) {
        _InterlockedExchangeAdd64((volatile __int64*)p, (__int64)d); }
    static __inline unsigned char fs_load_u8(const unsigned char* p) { return *(volatile const unsigned char*)p; }
    static __inline void fs_store_u8(unsigned char* p, unsigned char v) { _InterlockedExchange8((volatile char*)p, (char)v); }
    static __inline int fs_load_int(int* p) { return *(volatile int*)p; }
    static __inline void fs_add_int(int* p, int d) { _InterlockedExchangeAdd((volatile long*)p, (long)d); }
    static __inline void fs_store_u8_sc(unsigned char* p, unsigned char v) { _InterlockedExchange8((volatile char*)p, (char)v); }
    static __inline int fs_load_int_sc(int* p) { return _InterlockedOr((volatile long*)p, 0); }
    static __inline unsigned char fs_load_u8_sc(unsigned char* p) { return (unsigned char)_InterlockedOr8((volatile char*)p, 0); }
    static __inline int fs_cas_int(int* p, int expected, int v) {
        return _InterlockedCompareExchange((volatile long*)p, (long)v, (long)expected) == expected; }
    static __inline int fs_cas_u8(unsigned char* p, unsigned char expected, unsigned char v) {
        return (unsigned char)_InterlockedCompareExchange8((volatile char*)p, (char)v, (char)expected) == expected; }
    static __inline void fs_and_u8(unsigned char* p, unsigned char v) { _InterlockedAnd8((volatile char*)p, (char)v); }
    static __inline void fs_store_int(int* p, int v) { _InterlockedExchange((volatile long*)p, (long)v); }
    static __inline unsigned long long fs_load_u64(unsigned long long* p) { return *(volatile unsigned long long*)p; }
    static __inline void fs_store_u64(unsigned long long* p, unsigned long long v) { *(volatile unsigned long long*)p = v; }
    static __inline void fs_pause(int* spins) { YieldProcessor(); if (++*spins > 1000) { SwitchToThread(); *spins = 0; } }
    #else
    #include <sched.h>
    static inline void fs_lock(unsigned char* l) {
        int spins = 0;
        while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
            while (__atomic_load_n(l, __ATOMIC_RELAXED)) { if (++spins > 1000) { sched_yield(); spins = 0; } }
        }
    }
    static inline void fs_unlock(unsigned char* l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }
    static inline size_t fs_load_size(size_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void fs_store_size(size_t* p, size_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline void fs_add_size(size_t* p, size_t d) { __atomic_fetch_add(p, d, __ATOMIC_RELAXED); }
    static inline int fs_cas_size(size_t* p, size_t expected, size_t v) {
        return __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); }
    static inline void fs_add_i64(long long* p, long long d) { __atomic_fetch_add(p, d, __ATOMIC_RELAXED); }
    static inline unsigned char fs_load_u8(const unsigned char* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void fs_store_u8(unsigned char* p, unsigned char v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int fs_load_int(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void fs_add_int(int* p, int d) { __atomic_fetch_add(p, d, __ATOMIC_RELAXED); }
    static inline void fs_store_u8_sc(unsigned char* p, unsigned char v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline int fs_load_int_sc(int* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline unsigned char fs_load_u8_sc(unsigned char* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
    static inline int fs_cas_int(int* p, int expected, int v) {
        return __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    static inline int fs_cas_u8(unsigned char* p, unsigned char expected, unsigned char v) {
        return __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED); }
    static inline void fs_and_u8(unsigned char* p, unsigned char v) { __atomic_fetch_and(p, v, __ATOMIC_RELEASE); }
    static inline void fs_store_int(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
    static inline unsigned long long fs_load_u64(unsigned long long* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void fs_store_u64(unsigned long long* p, unsigned long long v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline void fs_pause(int* spins) {
    #if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
    #endif
        if (++*spins > 1000) { sched_yield(); *spins = 0; }
    }
    #endif
    """
    void fs_lock(unsigned char* l) noexcept nogil
    void fs_unlock(unsigned char* l) noexcept nogil
    size_t fs_load_size(size_t* p) noexcept nogil
    void fs_store_size(size_t* p, size_t v) noexcept nogil
    void fs_add_size(size_t* p, size_t d) noexcept nogil
    bint fs_cas_size(size_t* p, size_t expected, size_t v) noexcept nogil
    void fs_add_i64(long long* p, long long d) noexcept nogil
    unsigned char fs_load_u8(const unsigned char* p) noexcept nogil
    void fs_store_u8(unsigned char* p, unsigned char v) noexcept nogil
    int fs_load_int(int* p) noexcept nogil
    void fs_add_int(int* p, int d) noexcept nogil
    void fs_store_u8_sc(unsigned char* p, unsigned char v) noexcept nogil
    int fs_load_int_sc(int* p) noexcept nogil
    unsigned char fs_load_u8_sc(unsigned char* p) noexcept nogil
    bint fs_cas_int(int* p, int expected, int v) noexcept nogil
    bint fs_cas_u8(unsigned char* p, unsigned char expected, unsigned char v) noexcept nogil
    void fs_and_u8(unsigned char* p, unsigned char v) noexcept nogil
    void fs_store_int(int* p, int v) noexcept nogil
    void fs_pause(int* spins) noexcept nogil
    unsigned long long fs_load_u64(unsigned long long* p) noexcept nogil
    void fs_store_u64(unsigned long long* p, unsigned long long v) noexcept nogil
