/* The 64-bit task-state segment (Intel SDM vol. 3, 8.7): the BSP's (cpu/gdt.c) and each
 * AP's (cpu/mp.h); only the interrupt stack table is used, for the fault handlers. */
#ifndef QEMU_CPU_TSS_H
#define QEMU_CPU_TSS_H

#include <stdint.h>

struct x86_tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t io_map_base;
} __attribute__((packed));
_Static_assert(sizeof(struct x86_tss) == 104, "TSS layout");

#endif
