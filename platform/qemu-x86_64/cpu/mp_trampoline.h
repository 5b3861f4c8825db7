/* The page an AP starts in (cpu/mp_trampoline.S, copied below 1 MiB by cpu/mp_start.c):
 * offsets of the fields the BSP fills in. Used from assembly and from C. */
#ifndef QEMU_MP_TRAMPOLINE_H
#define QEMU_MP_TRAMPOLINE_H

#define MP_T_GDT 0x100	    /* the trampoline's GDT: reset/layout.h's selectors */
#define MP_T_GDTR 0x120	    /* limit (2 bytes), linear base (4, filled in) */
#define MP_T_FAR32 0x130    /* m16:32 to the 32-bit code (offset filled in) */
#define MP_T_FAR64 0x138    /* m16:32 to the 64-bit code (offset filled in) */
#define MP_T_CR3 0x140	    /* the BSP's page tables (below 4 GiB) */
#define MP_T_CR4 0x144	    /* the BSP's CR4, less what only long mode may set */
#define MP_T_EFER 0x148	    /* the BSP's EFER (LME, NXE) */
#define MP_T_CR0 0x14c	    /* the BSP's CR0 (PG, WP ...) */
#define MP_T_ENTRY 0x150    /* the 64-bit C entry, mp_ap_main(struct mp_cpu *) */
#define MP_T_LAPIC_ID 0x158 /* the address of the local APIC's ID register */
#define MP_T_CPUS 0x800	    /* struct mp_cpu pointers by APIC ID (256 of 8 bytes) */
#define MP_T_MAX_APIC_ID 255

#endif
