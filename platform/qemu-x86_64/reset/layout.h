/* Addresses the reset code and the platform agree on. Used from assembly and from C. */
#ifndef QEMU_LAYOUT_H
#define QEMU_LAYOUT_H

/* Low memory the firmware takes before the core runs (below 640 KiB). */
#define PAGE_TABLES 0x10000 /* PML4, PDPT, then one PD per GiB */
#define PDPT_OFFSET 0x1000
#define PD_OFFSET 0x2000
#define IDENTITY_GIB 64
#define LOW_GIB 4 /* mapped before long mode (reset.S) */
#define PAGE_TABLES_SIZE (PD_OFFSET + IDENTITY_GIB * 0x1000)
#define EARLY_STACK_BOTTOM 0x60000
#define EARLY_STACK_TOP 0x80000

/* The firmware image: the code region ends at 4 GiB, the variable store's region (VARS)
 * lies right below it, in both the -bios and the pflash layouts (the Makefile reads
 * these two lines). */
#define FW_CODE_SIZE 0x200000
#define FW_VARS_SIZE 0x80000

/* The firmware volume of drivers (PI FFS2, docs/design.md "Firmware volume"): the first
 * FW_VOLUME_SIZE bytes of the code region, at a fixed place that scripts/mkfd, ember-fw and
 * the reset stage's check agree on; the packed core lies above it, the reset blob last. */
#define FW_VOLUME_OFFSET 0
#define FW_VOLUME_SIZE 0x100000
#define FW_VOLUME_BASE (0x100000000 - FW_CODE_SIZE + FW_VOLUME_OFFSET)

/* The reset blob: the last 8 KiB below 4 GiB (reset.ld); offset of its start in CS. */
#define RESET_BLOB_BASE 0xffffe000
#define RESET_BASE_IN_CS 0xe000

/* Where the core runs (its link address, see core.ld). */
#define CORE_LOAD_ADDRESS 0x100000

/* core_descriptor fields (byte offsets), written by scripts/mkfd. */
#define CORE_FLASH 8	    /* flash address of the core's packed image */
#define CORE_LOAD 16	    /* RAM address to unpack it to */
#define CORE_FILE_SIZE 24   /* bytes it unpacks to */
#define CORE_BSS_END 32	    /* end of the zero-filled area after it */
#define CORE_ENTRY 40	    /* address to call */
#define CORE_PACKED_SIZE 48 /* bytes of DEFLATE data in flash */
#define CORE_CALLS_SIZE 56  /* bytes from the start whose calls to decode (lib/call_filter.c) */
#define CORE_PACKED_SUM 64  /* Fletcher-style sum of the packed core (reset/verify.c) */
/* The hot and cold split (docs/design.md): the stream holds the core without its cold part,
 * whose place the bytes from CORE_MOVE_AT on (its data) skip: they move to CORE_MOVE_TO
 * (offsets from CORE_LOAD; equal to CORE_FILE_SIZE both when there is no cold part). */
#define CORE_MOVE_AT 72
#define CORE_MOVE_TO 80
#define CORE_DESCRIPTOR_SIZE 88

/* Where the reset stage reports a damaged image. */
#define DEBUGCON_PORT 0x402
#define SERIAL_PORT 0x3f8

#define GDT_CODE32 0x08
#define GDT_DATA 0x10
#define GDT_CODE64 0x18

#define CR0_PE (1 << 0)
#define CR0_MP (1 << 1)
#define CR0_EM (1 << 2)
#define CR0_NW (1 << 29)
#define CR0_CD (1 << 30)
#define CR0_PG (1 << 31)
#define CR4_PAE (1 << 5)
#define CR4_OSFXSR (1 << 9)
#define CR4_OSXMMEXCPT (1 << 10)
#define MSR_EFER 0xc0000080
#define EFER_LME (1 << 8)
#define PTE_PRESENT_RW 0x3
#define PTE_LARGE 0x80

#endif
