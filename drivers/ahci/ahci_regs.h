/* AHCI 1.3.1 register map and in-memory structures: the HBA's generic host control block,
 * the per-port registers, command headers, command tables with their PRDT, and the
 * received-FIS area. */
#ifndef DRIVERS_AHCI_REGS_H
#define DRIVERS_AHCI_REGS_H

#include <efi/types.h>

#define AHCI_ABAR 5 /* the register block is BAR 5 (ABAR) */

/* PCI class code: mass storage, SATA, AHCI 1.0 programming interface. */
#define AHCI_PCI_CLASS 0x01
#define AHCI_PCI_SUBCLASS 0x06
#define AHCI_PCI_PROG_IF 0x01

/* Generic host control (3.1). */
#define AHCI_CAP 0x00
#define AHCI_CAP_NP 0x1fu	 /* number of ports - 1 */
#define AHCI_CAP_NCS_SHIFT 8	 /* number of command slots - 1, 5 bits */
#define AHCI_CAP_SCLO (1u << 24) /* supports command list override */
#define AHCI_CAP_SSS (1u << 27)	 /* supports staggered spin-up */
#define AHCI_CAP_S64A (1u << 31) /* supports 64-bit addressing */
#define AHCI_GHC 0x04
#define AHCI_GHC_HR (1u << 0)  /* HBA reset */
#define AHCI_GHC_IE (1u << 1)  /* interrupt enable */
#define AHCI_GHC_AE (1u << 31) /* AHCI enable */
#define AHCI_IS 0x08
#define AHCI_PI 0x0c /* ports implemented */
#define AHCI_VS 0x10

/* Port registers (3.3), at 0x100 + 0x80 * port. */
#define AHCI_PORT_BASE 0x100
#define AHCI_PORT_STRIDE 0x80
#define AHCI_MAX_PORTS 32
#define AHCI_PxCLB 0x00
#define AHCI_PxCLBU 0x04
#define AHCI_PxFB 0x08
#define AHCI_PxFBU 0x0c
#define AHCI_PxIS 0x10
#define AHCI_PxIE 0x14
#define AHCI_PxCMD 0x18
#define AHCI_PxTFD 0x20
#define AHCI_PxSIG 0x24
#define AHCI_PxSSTS 0x28
#define AHCI_PxSCTL 0x2c
#define AHCI_PxSERR 0x30
#define AHCI_PxSACT 0x34
#define AHCI_PxCI 0x38

#define AHCI_PxCMD_ST (1u << 0)	 /* start: process the command list */
#define AHCI_PxCMD_SUD (1u << 1) /* spin-up device */
#define AHCI_PxCMD_POD (1u << 2) /* power on device */
#define AHCI_PxCMD_CLO (1u << 3) /* command list override */
#define AHCI_PxCMD_FRE (1u << 4) /* FIS receive enable */
#define AHCI_PxCMD_FR (1u << 14) /* FIS receive running */
#define AHCI_PxCMD_CR (1u << 15) /* command list running */
#define AHCI_PxCMD_ATAPI (1u << 24)

/* PxIS bits that mean the command failed (task file, host bus, interface errors). */
#define AHCI_PxIS_TFES (1u << 30)
#define AHCI_PxIS_ERRORS 0x7d800010u

#define AHCI_PxTFD_ERR 0x01u /* status register bits, low byte of PxTFD */
#define AHCI_PxTFD_DRQ 0x08u
#define AHCI_PxTFD_DF 0x20u
#define AHCI_PxTFD_BSY 0x80u

#define AHCI_PxSSTS_DET 0x0fu
#define AHCI_DET_NONE 0
#define AHCI_DET_PRESENT_NO_PHY 1
#define AHCI_DET_PRESENT 3 /* device present and communication established */
#define AHCI_PxSCTL_DET 0x0fu
#define AHCI_PxSCTL_DET_COMRESET 1u /* DET 1: send COMRESET while it is held */

/* Device signatures in PxSIG (from the device's first D2H Register FIS). */
#define AHCI_SIG_ATA 0x00000101u
#define AHCI_SIG_ATAPI 0xeb140101u

/* Command header (4.2.2): 32 bytes, 32 per command list. */
struct ahci_cmd_header {
	UINT16 flags; /* CFL (FIS length in dwords, bits 4:0), A (5), W (6), P (7), C (10) */
	UINT16 prdtl; /* PRDT entries */
	UINT32 prdbc; /* bytes transferred, written by the HBA */
	UINT32 ctba;  /* command table, 128-byte aligned */
	UINT32 ctbau;
	UINT32 reserved[4];
};
_Static_assert(sizeof(struct ahci_cmd_header) == 32, "AHCI command header");

#define AHCI_CMD_ATAPI (1u << 5)
#define AHCI_CMD_WRITE (1u << 6)
#define AHCI_CMD_CLEAR_BUSY (1u << 10)

/* Physical region descriptor (4.2.3.3). */
struct ahci_prd {
	UINT32 dba; /* data base address; bit 0 reserved, so buffers are word aligned */
	UINT32 dbau;
	UINT32 reserved;
	UINT32 dbc; /* byte count - 1 (bits 21:0), I (bit 31) */
};
_Static_assert(sizeof(struct ahci_prd) == 16, "AHCI PRD entry");
#define AHCI_PRD_MAX_BYTES 0x400000u /* 4 MiB per entry */

/* Command table (4.2.3): command FIS, ATAPI command, then the PRDT. */
struct ahci_cmd_table {
	UINT8 cfis[64];
	UINT8 acmd[16];
	UINT8 reserved[48];
	struct ahci_prd prdt[];
};
_Static_assert(sizeof(struct ahci_cmd_table) == 0x80, "AHCI command table");

#define AHCI_RECEIVED_FIS_BYTES 256

#endif
