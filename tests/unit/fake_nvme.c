/* The fake NVMe controller (see fake_nvme.h): its registers in BAR 0, enabling, reset and
 * shutdown, and the queues: fetching submissions at a tail doorbell and posting completions.
 * Offsets and fields are written here again from NVM Express 1.4 (3.1, 4), not taken from
 * the driver, so that a mistake in the driver's header shows. */
#include <stdlib.h>
#include <string.h>

#include "fake_nvme.h"
#include "support/test.h"

#define BAR_SIZE 0x2000
#define R_CAP 0x00
#define R_VS 0x08
#define R_INTMS 0x0c
#define R_INTMC 0x10
#define R_CC 0x14
#define R_CSTS 0x1c
#define R_AQA 0x24
#define R_ASQ 0x28
#define R_ACQ 0x30
#define R_DOORBELL 0x1000
#define CC_EN 1u
#define CC_SHN (3u << 14)
#define CSTS_RDY 1u
#define CSTS_CFS 2u
#define CSTS_SHST_DONE (2u << 2)

static UINT32 stride(struct fake_nvme *n)
{
	return 4u << ((n->cap >> 32) & 0xf);
}

static UINT32 csts(struct fake_nvme *n)
{
	UINT32 v = n->csts;

	if ((n->cc & CC_EN) && n->ready_ns != UINT64_MAX &&
	    test_now_ns() - n->enabled_at >= n->ready_ns)
		v |= CSTS_RDY;
	return v | (n->fatal ? CSTS_CFS : 0);
}

static UINT64 reg_read(void *device, UINT64 offset, UINT32 width)
{
	struct fake_nvme *n = device;
	UINT64 v;

	switch (offset & ~3ull) {
	case R_CAP:
		v = n->cap;
		break;
	case R_CAP + 4:
		v = n->cap >> 32;
		break;
	case R_VS:
		v = n->vs;
		break;
	case R_INTMS:
	case R_INTMC:
		v = n->intms;
		break;
	case R_CC:
		v = n->cc;
		break;
	case R_CSTS:
		v = csts(n);
		break;
	case R_AQA:
		v = n->aqa;
		break;
	case R_ASQ:
		v = (UINT32)n->asq;
		break;
	case R_ASQ + 4:
		v = n->asq >> 32;
		break;
	case R_ACQ:
		v = (UINT32)n->acq;
		break;
	case R_ACQ + 4:
		v = n->acq >> 32;
		break;
	default:
		v = 0;
		break;
	}
	if (width != 4)
		fake_pci_io_error(n->pci, "register %#llx read with width %u",
				  (unsigned long long)offset, width);
	return (UINT32)v;
}

/* A controller reset (CC.EN to 0): every queue is gone. */
static void reset(struct fake_nvme *n)
{
	memset(n->sq, 0, sizeof(n->sq));
	memset(n->cq, 0, sizeof(n->cq));
	n->csts &= ~CSTS_SHST_DONE;
	n->fatal = false;
}

static void enable(struct fake_nvme *n, UINT32 cc)
{
	UINT16 sq = (UINT16)((n->aqa & 0xfff) + 1), cq = (UINT16)(((n->aqa >> 16) & 0xfff) + 1);

	if ((cc >> 16 & 0xf) != 6 || (cc >> 20 & 0xf) != 4 || (cc >> 7 & 0xf) || (cc >> 4 & 7) ||
	    sq < 2 || cq < 2 || (n->asq | n->acq) & (FAKE_NVME_PAGE - 1)) {
		fake_pci_io_error(n->pci, "enabled with CC %#x AQA %#x", cc, n->aqa);
		n->fatal = true;
	}
	n->sq[0] = (struct fake_nvme_queue){true, n->asq, sq, 0, 0, 0, 0};
	n->cq[0] = (struct fake_nvme_queue){true, n->acq, cq, 0, 0, 0, 1};
	n->enabled_at = test_now_ns();
	n->enables++;
}

static void write_cc(struct fake_nvme *n, UINT32 value)
{
	bool was = n->cc & CC_EN, now = value & CC_EN;

	if (!was && now) {
		if (csts(n) & CSTS_RDY)
			fake_pci_io_error(n->pci, "EN set while RDY still set");
		enable(n, value);
	} else if (was && !now) {
		reset(n);
	}
	if ((value & CC_SHN) && !(n->cc & CC_SHN)) {
		n->csts |= CSTS_SHST_DONE;
		n->shutdowns++;
	}
	n->cc = value;
}

/* A completion into queue cqid for the command at sq's head. */
static void post(struct fake_nvme *n, UINT16 qid, UINT16 cid, const struct fake_nvme_cqe_out *o)
{
	struct fake_nvme_queue *sq = &n->sq[qid], *cq = &n->cq[sq->cqid];
	UINT8 *e = fake_pci_io_dma(n->pci, cq->base + (UINT64)cq->tail * 16, 16, true);
	UINT32 dw2 = sq->head | (UINT32)qid << 16;
	UINT32 dw3 = cid | (UINT32)(o->status << 1 | cq->phase) << 16;

	if (!e)
		return;
	memcpy(e, &o->dw0, 4);
	memset(e + 4, 0, 4);
	memcpy(e + 8, &dw2, 4);
	memcpy(e + 12, &dw3, 4);
	if (++cq->tail == cq->entries) {
		cq->tail = 0;
		cq->phase ^= 1;
	}
	if (cq->tail == cq->head)
		fake_pci_io_error(n->pci, "completion queue %u overflows", sq->cqid);
}

static void run_queue(struct fake_nvme *n, UINT16 qid)
{
	struct fake_nvme_queue *sq = &n->sq[qid];

	while (sq->exists && sq->head != sq->tail && (csts(n) & CSTS_RDY)) {
		UINT8 sqe[64];
		UINT8 *e = fake_pci_io_dma(n->pci, sq->base + (UINT64)sq->head * 64, 64, false);
		struct fake_nvme_cqe_out out = {0};
		UINT16 cid;

		if (!e)
			return;
		memcpy(sqe, e, 64);
		cid = (UINT16)(sqe[2] | sqe[3] << 8);
		sq->head = (UINT16)((sq->head + 1) % sq->entries);
		n->commands++;
		if (!fake_nvme_run(n, qid, sqe, &out))
			continue;
		if (out.wrong_cid)
			cid ^= 0x5a5a;
		post(n, qid, cid, &out);
	}
}

static void doorbell(struct fake_nvme *n, UINT64 offset, UINT32 value)
{
	UINT32 index = (UINT32)((offset - R_DOORBELL) / stride(n));
	UINT16 qid = (UINT16)(index / 2);
	struct fake_nvme_queue *q;

	if (qid >= FAKE_NVME_QUEUES || (offset - R_DOORBELL) % stride(n)) {
		fake_pci_io_error(n->pci, "doorbell write at %#llx", (unsigned long long)offset);
		return;
	}
	q = index & 1 ? &n->cq[qid] : &n->sq[qid];
	if (!q->exists || value >= q->entries) {
		fake_pci_io_error(n->pci, "doorbell %u of queue %u set to %u", index & 1, qid,
				  value);
		return;
	}
	if (index & 1) {
		q->head = (UINT16)value;
		return;
	}
	q->tail = (UINT16)value;
	run_queue(n, qid);
}

static void reg_write(void *device, UINT64 offset, UINT32 width, UINT64 value)
{
	struct fake_nvme *n = device;
	UINT32 v = (UINT32)value;
	bool idle = !(n->cc & CC_EN) && !(csts(n) & CSTS_RDY);

	if (width != 4)
		fake_pci_io_error(n->pci, "register %#llx written with width %u",
				  (unsigned long long)offset, width);
	if (offset >= R_DOORBELL) {
		doorbell(n, offset, v);
		return;
	}
	if (!idle && offset >= R_AQA && offset < R_ACQ + 8)
		fake_pci_io_error(n->pci, "admin queue registers written while enabled");
	switch (offset) {
	case R_INTMS:
		n->intms |= v;
		break;
	case R_INTMC:
		n->intms &= ~v;
		break;
	case R_CC:
		write_cc(n, v);
		break;
	case R_AQA:
		n->aqa = v;
		break;
	case R_ASQ:
		n->asq = (n->asq & ~0xffffffffull) | v;
		break;
	case R_ASQ + 4:
		n->asq = (n->asq & 0xffffffffull) | (UINT64)v << 32;
		break;
	case R_ACQ:
		n->acq = (n->acq & ~0xffffffffull) | v;
		break;
	case R_ACQ + 4:
		n->acq = (n->acq & 0xffffffffull) | (UINT64)v << 32;
		break;
	default:
		break;
	}
}

static void put32(UINT8 *p, UINT32 v)
{
	memcpy(p, &v, 4);
}

static void build_identify(struct fake_nvme *n)
{
	memset(n->identify, 0, sizeof(n->identify));
	n->identify[0] = 0x36, n->identify[1] = 0x1b;
	memcpy(n->identify + 4, "EMBER-FAKE-1        ", 20);
	memcpy(n->identify + 24, "Fake NVMe Controller                    ", 40);
	n->identify[77] = 7; /* MDTS: 128 pages */
	put32(n->identify + 80, 0x10400);
	n->identify[512] = 0x66;       /* SQES */
	n->identify[513] = 0x44;       /* CQES */
	put32(n->identify + 516, 256); /* NN */
	n->identify[525] = 1;	       /* VWC */
}

struct fake_nvme *fake_nvme_create(UINT8 pci_dev)
{
	const struct fake_pci_io_config config = {
	    .vendor = 0x1b36,
	    .device = 0x0010,
	    .class_code = 0x010802,
	    .dev = pci_dev,
	    .supports = EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER |
			EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE,
	};
	struct fake_nvme *n = calloc(1, sizeof(*n));
	struct fake_pci_bar bar = {BAR_SIZE, false, reg_read, reg_write, n};

	if (!n)
		return NULL;
	n->pci = fake_pci_io_create(&config);
	if (!n->pci) {
		free(n);
		return NULL;
	}
	fake_pci_io_set_bar(n->pci, 0, &bar);
	n->cap = 2047 | 1ull << 16 | 15ull << 24 | 1ull << 37;
	n->vs = 0x10400;
	build_identify(n);
	return n;
}

void fake_nvme_destroy(struct fake_nvme *n)
{
	if (!n)
		return;
	fake_pci_io_destroy(n->pci);
	free(n);
}

struct fake_nvme_ns *fake_nvme_attach(struct fake_nvme *n, UINT32 nsid, UINT8 *data, UINT64 blocks,
				      UINT8 block_shift)
{
	struct fake_nvme_ns *ns = NULL;

	for (UINT32 i = 0; i < FAKE_NVME_NAMESPACES && !ns; i++)
		if (!n->ns[i].nsid)
			ns = &n->ns[i];
	if (!ns)
		return NULL;
	*ns = (struct fake_nvme_ns){.nsid = nsid, .data = data, .blocks = blocks};
	ns->block_shift = block_shift;
	for (UINT32 i = 0; i < 8; i++)
		ns->eui64[i] = (UINT8)(0x50 + nsid + i);
	memcpy(ns->identify, &blocks, 8);      /* NSZE */
	memcpy(ns->identify + 8, &blocks, 8);  /* NCAP */
	memcpy(ns->identify + 16, &blocks, 8); /* NUSE */
	ns->identify[25] = 0;		       /* NLBAF: one format */
	ns->identify[26] = 0;		       /* FLBAS: format 0 */
	memcpy(ns->identify + 120, ns->eui64, 8);
	ns->identify[128 + 2] = block_shift; /* LBAF0.LBADS */
	return ns;
}
