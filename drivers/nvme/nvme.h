/* The NVM Express driver's state: a controller (its registers, the admin queue and one I/O
 * queue pair in one DMA area, polled) and its namespaces, each a child handle with BlockIo,
 * BlockIo2 and DiskInfo. The controller's handle carries EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL.
 * Commands run one at a time: every caller waits for its completion. */
#ifndef DRIVERS_NVME_H
#define DRIVERS_NVME_H

#include <efi/protocol/disk_info.h>
#include <efi/protocol/nvm_express_pass_thru.h>
#include <efi/protocol/pci_io.h>
#include <ember/drivers/blkdev.h>
#include <ember/lib/list.h>
#include <ember/lib/util.h>
#include "nvme_identify.h"
#include "nvme_spec.h"

#define NVME_CTRL_SIGNATURE SIGNATURE_32('n', 'v', 'm', 'e')

#define NVME_PCI_CLASS 0x01
#define NVME_PCI_SUBCLASS 0x08
#define NVME_PCI_PROG_IF 0x02

#define NVME_QUEUE_ENTRIES 64u /* at most; CAP.MQES may ask for fewer */
#define NVME_PRP_ENTRIES (NVME_PAGE_SIZE / 8)
/* The most one command moves: a page for PRP1 and a full PRP list. */
#define NVME_MAX_TRANSFER (NVME_PRP_ENTRIES * NVME_PAGE_SIZE)
#define NVME_MAX_NAMESPACES (NVME_IDENTIFY_BYTES / 4) /* one active namespace list */

/* The pages of the DMA area. */
enum nvme_page {
	NVME_PAGE_ADMIN_SQ,
	NVME_PAGE_ADMIN_CQ,
	NVME_PAGE_IO_SQ,
	NVME_PAGE_IO_CQ,
	NVME_PAGE_PRP_LIST,
	NVME_PAGE_SCRATCH, /* Identify data */
	NVME_PAGES,
};

#define NVME_ADMIN_TIMEOUT_NS 5000000000ull
#define NVME_IO_TIMEOUT_NS 30000000000ull
#define NVME_FOREVER UINT64_MAX

struct nvme_queue {
	UINT16 id; /* 0: the admin queue */
	UINT16 entries;
	UINT16 sq_tail, cq_head;
	UINT16 next_cid;
	UINT16 phase; /* the phase tag a new completion carries */
	struct nvme_sqe *sq;
	volatile struct nvme_cqe *cq;
};

struct nvme_ctrl {
	UINT32 signature;
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_HANDLE controller;
	EFI_HANDLE driver;
	EFI_DEVICE_PATH_PROTOCOL *path; /* the controller's device path */
	UINT64 cap;
	UINT32 version;		 /* VS */
	UINT32 doorbell_stride;	 /* bytes */
	UINT64 ready_timeout_ns; /* CAP.TO */
	UINT8 *mem;		 /* NVME_PAGES pages (enum nvme_page) */
	UINT64 mem_addr;	 /* their device address */
	void *mem_mapping;
	struct nvme_queue admin, io;
	bool io_created;  /* the I/O queue pair exists on the controller */
	bool needs_reset; /* a command was lost: reset before the next one */
	struct nvme_ctrl_info info;
	UINT32 *ns_ids;	    /* the active namespaces, rising */
	UINT8 *ns_given_up; /* for each: it gave no child when all were asked for */
	UINT32 ns_count;
	struct list namespaces; /* struct nvme_ns, the children */
	EFI_EVENT exit_event;
	EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL pass_thru;
	EFI_NVM_EXPRESS_PASS_THRU_MODE mode;
};

/* A namespace, one child handle. */
struct nvme_ns {
	struct list link;
	struct blkdev blk;
	struct nvme_ctrl *ctrl;
	UINT32 nsid;
	UINT8 eui64[8];
	UINT32 max_blocks;		/* per command */
	EFI_DEVICE_PATH_PROTOCOL *path; /* controller path + NVMe(nsid,EUI-64) */
	EFI_DISK_INFO_PROTOCOL disk_info;
	UINT8 identify[NVME_IDENTIFY_BYTES]; /* its Identify Namespace data (DiskInfo) */
};

/* One command for nvme_exec: sqe as the caller built it (opcode, NSID, PRPs, CDW10-15; the
 * command ID is the queue's); cqe is the completion. */
struct nvme_cmd {
	struct nvme_sqe sqe;
	struct nvme_cqe cqe;
	UINT64 timeout_ns; /* NVME_FOREVER: no limit */
};

/* ---- The controller (nvme_ctrl.c) ---- */

UINT32 nvme_read32(struct nvme_ctrl *c, UINT32 offset);
void nvme_write32(struct nvme_ctrl *c, UINT32 offset, UINT32 value);

/* Waits a little between two looks at the controller, longer the longer it has been
 * waited for since start_ns. */
void nvme_poll_pause(UINT64 start_ns);

/* Reads CAP and VS, allocates and maps the DMA area. */
EFI_STATUS nvme_ctrl_init(struct nvme_ctrl *c);

/* Resets the controller and enables it with an empty admin queue (NVM Express 1.4, 7.6.1);
 * the I/O queues are gone afterwards. */
EFI_STATUS nvme_ctrl_enable(struct nvme_ctrl *c);

/* Resets the controller (CC.EN cleared, waiting for RDY to clear): it stops every command
 * and forgets its queues. */
EFI_STATUS nvme_ctrl_disable(struct nvme_ctrl *c);

/* Shuts the controller down (CC.SHN, 7.6.2), then disables it, so it does no more DMA. */
void nvme_ctrl_shutdown(struct nvme_ctrl *c);

/* Unmaps and frees the DMA area (after nvme_ctrl_shutdown). */
void nvme_ctrl_release(struct nvme_ctrl *c);

/* The host address and the device address of a page of the DMA area. */
void *nvme_page(struct nvme_ctrl *c, enum nvme_page page);
UINT64 nvme_page_addr(struct nvme_ctrl *c, enum nvme_page page);

/* ---- Commands (nvme_queue.c) ---- */

/* Gives a queue its pages and empties it. */
void nvme_queue_init(struct nvme_ctrl *c, struct nvme_queue *q, UINT16 id, UINT16 entries);

/* Runs cmd on q and waits for its completion. EFI_DEVICE_ERROR when it completed with an
 * error status (cmd->cqe tells which) or the controller answered with a completion that is
 * not this command's; EFI_TIMEOUT when it did not complete in time. After either of the
 * last two the controller is reset at once (the lost command must not write into memory
 * its caller frees) and enabled again before the next command. */
EFI_STATUS nvme_exec(struct nvme_ctrl *c, struct nvme_queue *q, struct nvme_cmd *cmd);

/* Points the command's PRP entries at bytes of memory at device address data, using the
 * PRP list page; false when data is not dword-aligned or bytes exceed NVME_MAX_TRANSFER. */
bool nvme_prp_fill(struct nvme_ctrl *c, struct nvme_sqe *sqe, UINT64 data, UINT32 bytes);

/* ---- Admin commands (nvme_admin.c) ---- */

/* Identify with the given CNS and NSID into the scratch page. */
EFI_STATUS nvme_identify(struct nvme_ctrl *c, UINT8 cns, UINT32 nsid);

/* Creates the I/O completion and submission queues. */
EFI_STATUS nvme_create_io_queues(struct nvme_ctrl *c);

/* Reads Identify Controller into c->info and the active namespaces into c->ns_ids. */
EFI_STATUS nvme_read_identity(struct nvme_ctrl *c);

/* Enables the controller again after a lost command, with its I/O queues. */
EFI_STATUS nvme_ctrl_recover(struct nvme_ctrl *c);

/* ---- Namespaces (nvme_ns.c, nvme_ns_io.c, nvme_disk_info.c) ---- */

/* Whether nsid is one of the controller's active namespaces. */
bool nvme_ns_active(struct nvme_ctrl *c, UINT32 nsid);

/* The device-path node NVMe(nsid, EUI-64) of an active namespace: its child's, or built
 * from Identify Namespace (whose failure is returned). */
EFI_STATUS nvme_ns_node(struct nvme_ctrl *c, UINT32 nsid, NVME_NAMESPACE_DEVICE_PATH *node);

/* Creates the child of namespace nsid (Identify Namespace, BlockIo, BlockIo2, DiskInfo,
 * device path) and opens PciIo BY_CHILD_CONTROLLER for it. */
EFI_STATUS nvme_ns_create(struct nvme_ctrl *c, UINT32 nsid);

/* Removes a child; EFI_ACCESS_DENIED while it is in use. */
EFI_STATUS nvme_ns_destroy(struct nvme_ns *ns);

/* The child of nsid, or of handle, or NULL. */
struct nvme_ns *nvme_ns_find(struct nvme_ctrl *c, UINT32 nsid);
struct nvme_ns *nvme_ns_on(struct nvme_ctrl *c, EFI_HANDLE handle);

/* The blkdev operations of a namespace. */
extern const struct blkdev_ops nvme_ns_ops;

/* Fills ns->disk_info. */
void nvme_disk_info_init(struct nvme_ns *ns);

/* ---- EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL (nvme_pass_thru.c) ---- */

/* Fills c->pass_thru and c->mode. */
void nvme_pass_thru_init(struct nvme_ctrl *c);

#endif
