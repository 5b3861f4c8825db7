/* An NVM Express 1.4 controller in memory, behind a fake PCI function (fake_pci_io.h) of
 * class 01/08/02 with its registers in BAR 0, for the tests of the NVMe driver. It models
 * what a driver relies on: CAP (MQES, TO, DSTRD, CSS, MPSMIN), VS, CC with EN and SHN, CSTS
 * with RDY, CFS and SHST, AQA/ASQ/ACQ, INTMS, and the doorbells. Writing a submission queue's
 * tail doorbell runs the new commands at once: each entry is fetched and its data moved
 * through fake_pci_io_dma (so only mapped memory is reachable, PRP lists walked as the
 * spec says) and its completion posted with the phase tag. Admin commands: Identify
 * (controller, namespace, active list), Create/Delete I/O CQ and SQ; NVM commands: Read,
 * Write, Flush on namespaces over byte arrays. Faults make a command fail with a status,
 * never complete, or complete as another command. Anything the spec forbids (a doorbell
 * past the queue, a PRP entry not page-aligned, queues made twice, CC written while the
 * controller is not idle ...) is an error of the PCI function (fake_pci_io_error). */
#ifndef EMBER_TEST_FAKE_NVME_H
#define EMBER_TEST_FAKE_NVME_H

#include <stdbool.h>
#include "fake_pci_io.h"

#define FAKE_NVME_NAMESPACES 4
#define FAKE_NVME_QUEUES 4
#define FAKE_NVME_PAGE 4096u

enum fake_nvme_fault_kind {
	FAKE_NVME_FAULT_NONE,
	FAKE_NVME_FAULT_STATUS,	   /* completes with status (SCT << 8 | SC) */
	FAKE_NVME_FAULT_HANG,	   /* never completes */
	FAKE_NVME_FAULT_WRONG_CID, /* completes under another command ID */
};

/* A fault and the commands it hits: opcode on queue (0 admin, 1 I/O). */
struct fake_nvme_fault {
	enum fake_nvme_fault_kind kind;
	UINT16 queue;
	UINT8 opcode;
	UINT16 status;
	UINT32 times; /* commands it hits before it goes away; 0: all of them */
};

struct fake_nvme_ns {
	UINT32 nsid; /* 0: none */
	UINT8 *data; /* blocks << block_shift bytes, the test's */
	UINT64 blocks;
	UINT8 block_shift;
	UINT8 eui64[8];
	UINT8 identify[FAKE_NVME_PAGE]; /* built when attached; the test may edit it */
	UINTN reads, writes, flushes;
	UINT64 last_lba;
	UINT32 last_blocks;
};

struct fake_nvme_queue {
	bool exists;
	UINT64 base;
	UINT16 entries;
	UINT16 head, tail; /* SQ: controller's head, host's tail; CQ: tail ours, head host's */
	UINT16 cqid;	   /* SQ: its completion queue */
	UINT16 phase;	   /* CQ: the phase tag being written */
};

struct fake_nvme {
	struct fake_pci_io *pci;
	UINT64 cap;
	UINT32 vs, cc, csts, aqa, intms;
	UINT64 asq, acq;
	UINT64 ready_ns; /* how long RDY takes to follow EN; UINT64_MAX: never */
	UINT64 enabled_at;
	bool fatal; /* CSTS.CFS */
	struct fake_nvme_queue sq[FAKE_NVME_QUEUES], cq[FAKE_NVME_QUEUES];
	UINT8 identify[FAKE_NVME_PAGE]; /* Identify Controller, editable */
	struct fake_nvme_ns ns[FAKE_NVME_NAMESPACES];
	struct fake_nvme_fault fault;
	/* What the controller saw. */
	UINTN enables, shutdowns, commands, identifies, prp_lists;
	UINT8 last_opcode;
	UINT32 max_transfer; /* most bytes one command moved */
};

/* A QEMU-like controller (1b36:0010) at PciRoot(0x0)/Pci(pci_dev,0x0): CAP with MQES 2047,
 * TO 15 (7.5 s), DSTRD 0, NVM command set, 4 KiB pages; version 1.4; Identify data with
 * MDTS 7 and a volatile write cache; no namespace; memory decoding and bus mastering off.
 * NULL on failure. */
struct fake_nvme *fake_nvme_create(UINT8 pci_dev);

/* Removes the controller (fake_pci_io_destroy) and frees it. */
void fake_nvme_destroy(struct fake_nvme *n);

/* Attaches namespace nsid over data (blocks << block_shift bytes) and builds its Identify
 * data (one LBA format); returns it for the test to edit. */
struct fake_nvme_ns *fake_nvme_attach(struct fake_nvme *n, UINT32 nsid, UINT8 *data, UINT64 blocks,
				      UINT8 block_shift);

/* ---- Between the registers (fake_nvme.c) and the commands (fake_nvme_cmd.c) ---- */

struct fake_nvme_cqe_out {
	UINT32 dw0;
	UINT16 status;	/* SCT << 8 | SC, 0 for success */
	bool wrong_cid; /* posted under another command ID */
};

/* Runs one command; false when it must not complete (a hang). */
bool fake_nvme_run(struct fake_nvme *n, UINT16 qid, const UINT8 *sqe,
		   struct fake_nvme_cqe_out *out);

/* Moves bytes between the device and the memory the command's PRPs describe; false (and
 * an error) when a PRP is wrong or the memory is not mapped. */
bool fake_nvme_prp_move(struct fake_nvme *n, const UINT8 *sqe, void *buf, UINT32 bytes,
			bool to_host);

#endif
