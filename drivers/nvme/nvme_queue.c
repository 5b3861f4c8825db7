/* Submitting a command and polling for its completion (NVM Express 1.4, 4.1 and 4.6): the
 * submission queue's tail doorbell, the completion queue's phase tag and head doorbell. A
 * completion is the controller's word, so it is taken only with the phase expected, the
 * queue's ID and the command ID just given out. */
#define LOG_PREFIX "nvme: "
#include "nvme.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

void nvme_queue_init(struct nvme_ctrl *c, struct nvme_queue *q, UINT16 id, UINT16 entries)
{
	enum nvme_page sq = id ? NVME_PAGE_IO_SQ : NVME_PAGE_ADMIN_SQ;
	enum nvme_page cq = id ? NVME_PAGE_IO_CQ : NVME_PAGE_ADMIN_CQ;

	q->id = id;
	q->entries = entries;
	q->sq_tail = q->cq_head = 0;
	q->phase = NVME_CQE_PHASE;
	q->sq = nvme_page(c, sq);
	q->cq = nvme_page(c, cq);
	mem_set(q->sq, 0, NVME_PAGE_SIZE);
	mem_set((void *)q->cq, 0, NVME_PAGE_SIZE);
}

static UINT32 doorbell(struct nvme_ctrl *c, UINT16 qid, bool completion)
{
	return NVME_REG_DOORBELLS + (2u * qid + completion) * c->doorbell_stride;
}

static void submit(struct nvme_ctrl *c, struct nvme_queue *q, const struct nvme_sqe *sqe)
{
	mem_copy(&q->sq[q->sq_tail], sqe, sizeof(*sqe));
	q->sq_tail = (UINT16)((q->sq_tail + 1) % q->entries);
	/* The entry must be in memory before the controller hears of it. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	nvme_write32(c, doorbell(c, q->id, false), q->sq_tail);
}

/* Takes the entry at the head of the completion queue, if the controller has posted one. */
static bool take_completion(struct nvme_ctrl *c, struct nvme_queue *q, struct nvme_cqe *cqe)
{
	volatile struct nvme_cqe *slot = &q->cq[q->cq_head];

	if ((slot->status & NVME_CQE_PHASE) != q->phase)
		return false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	cqe->dw0 = slot->dw0;
	cqe->dw1 = slot->dw1;
	cqe->sq_head = slot->sq_head;
	cqe->sq_id = slot->sq_id;
	cqe->cid = slot->cid;
	cqe->status = slot->status;
	q->cq_head = (UINT16)(q->cq_head + 1);
	if (q->cq_head == q->entries) {
		q->cq_head = 0;
		q->phase ^= NVME_CQE_PHASE;
	}
	nvme_write32(c, doorbell(c, q->id, true), q->cq_head);
	return true;
}

static EFI_STATUS wait_completion(struct nvme_ctrl *c, struct nvme_queue *q, struct nvme_cmd *cmd,
				  UINT16 cid)
{
	UINT64 start = core_time_ns();

	while (!take_completion(c, q, &cmd->cqe)) {
		if (cmd->timeout_ns != NVME_FOREVER && core_time_ns() - start >= cmd->timeout_ns) {
			log_warn("queue %u: command %#x timed out\n", q->id, cmd->sqe.cdw0 & 0xff);
			return EFI_TIMEOUT;
		}
		nvme_poll_pause(start);
	}
	if (cmd->cqe.cid != cid || cmd->cqe.sq_id != q->id || cmd->cqe.sq_head >= q->entries) {
		log_warn("queue %u: completion of command %#x (SQ %u, head %u), expected %#x\n",
			 q->id, cmd->cqe.cid, cmd->cqe.sq_id, cmd->cqe.sq_head, cid);
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

EFI_STATUS nvme_exec(struct nvme_ctrl *c, struct nvme_queue *q, struct nvme_cmd *cmd)
{
	UINT16 cid;
	EFI_STATUS status;

	if (c->needs_reset && EFI_ERROR(nvme_ctrl_recover(c)))
		return EFI_DEVICE_ERROR;
	if (q->id && !c->io_created)
		return EFI_DEVICE_ERROR;
	cid = q->next_cid++;
	cmd->sqe.cdw0 = (cmd->sqe.cdw0 & 0xffff) | (UINT32)cid << 16;
	mem_set(&cmd->cqe, 0, sizeof(cmd->cqe));
	submit(c, q, &cmd->sqe);
	status = wait_completion(c, q, cmd, cid);
	if (EFI_ERROR(status)) {
		/* The command may still be running, or the queues are out of step: stop the
		 * controller now, and start over with the next command. */
		nvme_ctrl_disable(c);
		c->needs_reset = true;
		return status;
	}
	if (NVME_CQE_SC(cmd->cqe.status) || NVME_CQE_SCT(cmd->cqe.status)) {
		log_debug("queue %u: command %#x: status %#x/%#x\n", q->id, cmd->sqe.cdw0 & 0xff,
			  NVME_CQE_SCT(cmd->cqe.status), NVME_CQE_SC(cmd->cqe.status));
		return EFI_DEVICE_ERROR;
	}
	return EFI_SUCCESS;
}

bool nvme_prp_fill(struct nvme_ctrl *c, struct nvme_sqe *sqe, UINT64 data, UINT32 bytes)
{
	UINT64 *list = nvme_page(c, NVME_PAGE_PRP_LIST);
	UINT32 first = NVME_PAGE_SIZE - (UINT32)(data & (NVME_PAGE_SIZE - 1));
	UINT64 page = (data & ~(UINT64)(NVME_PAGE_SIZE - 1)) + NVME_PAGE_SIZE;
	UINT32 pages;

	if ((data & 3) || bytes > NVME_MAX_TRANSFER)
		return false;
	sqe->prp1 = data;
	sqe->prp2 = 0;
	if (bytes <= first)
		return true;
	pages = (bytes - first + NVME_PAGE_SIZE - 1) / NVME_PAGE_SIZE;
	if (pages == 1) {
		sqe->prp2 = page;
		return true;
	}
	for (UINT32 i = 0; i < pages; i++)
		list[i] = page + (UINT64)i * NVME_PAGE_SIZE;
	sqe->prp2 = nvme_page_addr(c, NVME_PAGE_PRP_LIST);
	return true;
}
