/* Small helpers used everywhere in Ember. */
#ifndef EMBER_UTIL_H
#define EMBER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((__typeof__(x))(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define SIGNATURE_32(a, b, c, d)                                                                   \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely(x) __builtin_expect(!!(x), 1)
#define barrier() __asm__ __volatile__("" ::: "memory")

/* Overflow-checked arithmetic for sizes taken from untrusted input. */
#define add_overflows(a, b, res) __builtin_add_overflow(a, b, res)
#define mul_overflows(a, b, res) __builtin_mul_overflow(a, b, res)

/* Calls fn(arg) on another stack (lib/x86_64/call_on_stack.S); stack_top 16-byte aligned. */
void call_on_stack(void (*fn)(void *), void *arg, void *stack_top);

#endif
