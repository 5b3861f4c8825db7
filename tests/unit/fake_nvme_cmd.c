/* The fake NVMe controller's commands (see fake_nvme.h): the admin commands a driver needs,
 * Read, Write and Flush, the faults a test injects, and data moved through PRPs (NVM
 * Express 1.4, 4.3) with every rule of the PRP entries checked. */
#include <string.h>

#include "fake_nvme.h"
#include <ember/lib/util.h>

#define SC_INVALID_OPCODE 0x01
#define SC_INVALID_FIELD 0x02
#define SC_INVALID_NS 0x0b
#define SC_LBA_RANGE 0x80
#define SCT_SPECIFIC (1u << 8)
#define SC_INVALID_QID (SCT_SPECIFIC | 0x01)

static UINT32 dw(const UINT8 *sqe, UINT32 index)
{
	UINT32 v;

	memcpy(&v, sqe + 4 * index, 4);
	return v;
}

static UINT64 qw(const UINT8 *sqe, UINT32 index)
{
	return dw(sqe, index) | (UINT64)dw(sqe, index + 1) << 32;
}

/* The next PRP list entry, following a list's last entry to the next list page. */
static bool prp_list_entry(struct fake_nvme *n, UINT64 *list, UINT32 left, UINT64 *out)
{
	UINT64 *e;

	if ((*list & (FAKE_NVME_PAGE - 1)) == FAKE_NVME_PAGE - 8 && left > 1) {
		e = fake_pci_io_dma(n->pci, *list, 8, false);
		if (!e)
			return false;
		*list = *e;
		n->prp_lists++;
		if (*list & 7) {
			fake_pci_io_error(n->pci, "PRP list pointer %#llx",
					  (unsigned long long)*list);
			return false;
		}
	}
	e = fake_pci_io_dma(n->pci, *list, 8, false);
	if (!e)
		return false;
	*out = *e;
	*list += 8;
	return true;
}

static bool move(struct fake_nvme *n, UINT64 addr, UINT8 *buf, UINT32 len, bool to_host)
{
	UINT8 *mem = fake_pci_io_dma(n->pci, addr, len, to_host);

	if (!mem)
		return false;
	if (to_host)
		memcpy(mem, buf, len);
	else
		memcpy(buf, mem, len);
	return true;
}

bool fake_nvme_prp_move(struct fake_nvme *n, const UINT8 *sqe, void *buf, UINT32 bytes,
			bool to_host)
{
	UINT64 prp1 = qw(sqe, 6), prp2 = qw(sqe, 8), list = prp2, page;
	UINT32 first = FAKE_NVME_PAGE - (UINT32)(prp1 & (FAKE_NVME_PAGE - 1));
	UINT32 pages, done = MIN(first, bytes);
	UINT8 *p = buf;

	if ((prp1 & 3) || (sqe[1] >> 6)) {
		fake_pci_io_error(n->pci, "PRP1 %#llx, PSDT %u", (unsigned long long)prp1,
				  sqe[1] >> 6);
		return false;
	}
	if (!move(n, prp1, p, done, to_host))
		return false;
	if (done == bytes)
		return true;
	pages = (bytes - done + FAKE_NVME_PAGE - 1) / FAKE_NVME_PAGE;
	if (pages > 1) {
		n->prp_lists++;
		if (list & 7) {
			fake_pci_io_error(n->pci, "PRP list at %#llx", (unsigned long long)list);
			return false;
		}
	}
	for (UINT32 i = 0; i < pages; i++) {
		UINT32 len = MIN(FAKE_NVME_PAGE, bytes - done);

		if (pages == 1)
			page = prp2;
		else if (!prp_list_entry(n, &list, pages - i, &page))
			return false;
		if (page & (FAKE_NVME_PAGE - 1)) {
			fake_pci_io_error(n->pci, "PRP entry %#llx", (unsigned long long)page);
			return false;
		}
		if (!move(n, page, p + done, len, to_host))
			return false;
		done += len;
	}
	return true;
}

static struct fake_nvme_ns *find_ns(struct fake_nvme *n, UINT32 nsid)
{
	for (UINT32 i = 0; i < FAKE_NVME_NAMESPACES; i++)
		if (n->ns[i].nsid && n->ns[i].nsid == nsid)
			return &n->ns[i];
	return NULL;
}

static UINT16 identify(struct fake_nvme *n, const UINT8 *sqe)
{
	UINT8 page[FAKE_NVME_PAGE] = {0};
	struct fake_nvme_ns *ns;
	UINT32 count = 0, after = dw(sqe, 1);

	n->identifies++;
	switch (dw(sqe, 10) & 0xff) {
	case 0:
		ns = find_ns(n, dw(sqe, 1));
		if (ns)
			memcpy(page, ns->identify, sizeof(page));
		break;
	case 1:
		memcpy(page, n->identify, sizeof(page));
		break;
	case 2:
		/* The fake's namespaces are attached in rising order. */
		for (UINT32 i = 0; i < FAKE_NVME_NAMESPACES; i++)
			if (n->ns[i].nsid > after)
				memcpy(page + 4 * count++, &n->ns[i].nsid, 4);
		break;
	default:
		return SC_INVALID_FIELD;
	}
	return fake_nvme_prp_move(n, sqe, page, sizeof(page), true) ? 0 : SC_INVALID_FIELD;
}

static UINT16 create_queue(struct fake_nvme *n, const UINT8 *sqe, bool submission)
{
	UINT16 qid = (UINT16)dw(sqe, 10), entries = (UINT16)((dw(sqe, 10) >> 16) + 1);
	UINT32 cdw11 = dw(sqe, 11);
	struct fake_nvme_queue *q = submission ? &n->sq[qid] : &n->cq[qid];
	UINT16 cqid = (UINT16)(cdw11 >> 16);

	if (!qid || qid >= FAKE_NVME_QUEUES || q->exists || !(cdw11 & 1) || entries < 2 ||
	    entries > (n->cap & 0xffff) + 1 || (qw(sqe, 6) & (FAKE_NVME_PAGE - 1)) ||
	    (submission && (!cqid || cqid >= FAKE_NVME_QUEUES || !n->cq[cqid].exists)) ||
	    (!submission && (cdw11 & 2))) {
		fake_pci_io_error(n->pci, "create %s queue %u, CDW11 %#x",
				  submission ? "submission" : "completion", qid, cdw11);
		return SC_INVALID_QID;
	}
	*q = (struct fake_nvme_queue){true, qw(sqe, 6), entries, 0, 0, cqid, 1};
	return 0;
}

static UINT16 admin(struct fake_nvme *n, const UINT8 *sqe)
{
	UINT16 qid = (UINT16)dw(sqe, 10);

	switch (sqe[0]) {
	case 0x06:
		return identify(n, sqe);
	case 0x05:
		return create_queue(n, sqe, false);
	case 0x01:
		return create_queue(n, sqe, true);
	case 0x00:
	case 0x04:
		if (!qid || qid >= FAKE_NVME_QUEUES)
			return SC_INVALID_QID;
		if (sqe[0] == 0x00)
			n->sq[qid].exists = false;
		else
			n->cq[qid].exists = false;
		return 0;
	default:
		return SC_INVALID_OPCODE;
	}
}

static UINT16 read_write(struct fake_nvme *n, struct fake_nvme_ns *ns, const UINT8 *sqe)
{
	UINT64 lba = qw(sqe, 10);
	UINT32 blocks = (dw(sqe, 12) & 0xffff) + 1, bytes = blocks << ns->block_shift;
	bool write = sqe[0] == 0x01;

	if (lba >= ns->blocks || blocks > ns->blocks - lba)
		return SC_LBA_RANGE;
	ns->last_lba = lba;
	ns->last_blocks = blocks;
	n->max_transfer = MAX(n->max_transfer, bytes);
	if (n->identify[77] && bytes > (FAKE_NVME_PAGE << n->identify[77]))
		fake_pci_io_error(n->pci, "%u bytes in one command, past MDTS", bytes);
	if (write)
		ns->writes++;
	else
		ns->reads++;
	return fake_nvme_prp_move(n, sqe, ns->data + (lba << ns->block_shift), bytes, !write)
		   ? 0
		   : SC_INVALID_FIELD;
}

static UINT16 io(struct fake_nvme *n, const UINT8 *sqe)
{
	UINT32 nsid = dw(sqe, 1);
	struct fake_nvme_ns *ns = find_ns(n, nsid);

	if (sqe[0] == 0x00 && nsid == 0xffffffff) {
		for (UINT32 i = 0; i < FAKE_NVME_NAMESPACES; i++)
			n->ns[i].flushes++;
		return 0;
	}
	if (!ns)
		return SC_INVALID_NS;
	switch (sqe[0]) {
	case 0x00:
		ns->flushes++;
		return 0;
	case 0x01:
	case 0x02:
		return read_write(n, ns, sqe);
	default:
		return SC_INVALID_OPCODE;
	}
}

/* The fault that hits this command, counted; FAKE_NVME_FAULT_NONE when none does. */
static enum fake_nvme_fault_kind fault_for(struct fake_nvme *n, UINT16 qid, UINT8 opcode)
{
	struct fake_nvme_fault *f = &n->fault;
	enum fake_nvme_fault_kind kind = f->kind;

	if (kind == FAKE_NVME_FAULT_NONE || f->queue != qid || f->opcode != opcode)
		return FAKE_NVME_FAULT_NONE;
	if (f->times && --f->times == 0)
		f->kind = FAKE_NVME_FAULT_NONE;
	return kind;
}

bool fake_nvme_run(struct fake_nvme *n, UINT16 qid, const UINT8 *sqe, struct fake_nvme_cqe_out *out)
{
	enum fake_nvme_fault_kind fault = fault_for(n, qid, sqe[0]);

	n->last_opcode = sqe[0];
	if (fault == FAKE_NVME_FAULT_HANG)
		return false;
	out->wrong_cid = fault == FAKE_NVME_FAULT_WRONG_CID;
	if (fault == FAKE_NVME_FAULT_STATUS)
		out->status = n->fault.status;
	else
		out->status = qid ? io(n, sqe) : admin(n, sqe);
	return true;
}
