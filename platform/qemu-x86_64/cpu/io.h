/* x86 port I/O, MMIO, MSRs and a few privileged instructions. */
#ifndef QEMU_IO_H
#define QEMU_IO_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ __volatile__("outb %0, %1" ::"a"(v), "Nd"(port));
}
static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ __volatile__("outw %0, %1" ::"a"(v), "Nd"(port));
}
static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ __volatile__("outl %0, %1" ::"a"(v), "Nd"(port));
}
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t mmio_read32(uint64_t address)
{
	return *(volatile uint32_t *)(uintptr_t)address;
}
static inline void mmio_write32(uint64_t address, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)address = v;
}
static inline uint64_t mmio_read64(uint64_t address)
{
	return *(volatile uint64_t *)(uintptr_t)address;
}
static inline void mmio_write64(uint64_t address, uint64_t v)
{
	*(volatile uint64_t *)(uintptr_t)address = v;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}
static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ __volatile__("wrmsr" ::"c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c,
			 uint32_t *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}

static inline uint64_t read_flags(void)
{
	uint64_t f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f)::"memory");
	return f;
}

#define FLAGS_IF (1u << 9)

static inline void cpu_cli(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}
static inline void cpu_sti(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}
/* Enables interrupts and halts in one step, so a pending interrupt cannot slip between. */
static inline void cpu_sti_hlt(void)
{
	__asm__ __volatile__("sti; hlt" ::: "memory");
}

#endif
