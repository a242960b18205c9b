#ifndef SHIFTRENDER_PREFETCH_H
#define SHIFTRENDER_PREFETCH_H
// A hint that `address` will be read soon: one prefetch instruction, inlined
// into the Swift caller. Swift has no spelling for it (clang's `_mm_prefetch`
// is a macro and `__builtin_prefetch` a builtin; neither is imported). It
// never faults, whatever the address.
static inline void shiftrender_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
