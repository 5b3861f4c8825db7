/* virtio-scsi (virtio 1.x, 5.6) as a SCSI channel: the control queue for task management,
 * the first request queue for commands, each command one chain (request header, data out,
 * response with sense, data in) completed by polling. It publishes
 * EFI_EXT_SCSI_PASS_THRU_PROTOCOL through the shared front end (scsi_pass_thru.h). */
#ifndef DRIVERS_VIRTIO_SCSI_H
#define DRIVERS_VIRTIO_SCSI_H

#include <ember/drivers/scsi_pass_thru.h>
#include "virtio.h"

#define VIRTIO_ID_SCSI 8
#define VIRTIO_PCI_LEGACY_SCSI 0x1004

#define VIRTIO_SCSI_F_INOUT (1ULL << 0)

/* Device configuration (5.6.4), offsets. */
#define VIRTIO_SCSI_CFG_NUM_QUEUES 0
#define VIRTIO_SCSI_CFG_SEG_MAX 4
#define VIRTIO_SCSI_CFG_MAX_SECTORS 8
#define VIRTIO_SCSI_CFG_SENSE_SIZE 20
#define VIRTIO_SCSI_CFG_CDB_SIZE 24
#define VIRTIO_SCSI_CFG_MAX_TARGET 30 /* u16 */
#define VIRTIO_SCSI_CFG_MAX_LUN 32

#define VIRTIO_SCSI_CONTROL_QUEUE 0
#define VIRTIO_SCSI_REQUEST_QUEUE 2

/* Responses (5.6.6.1). */
#define VIRTIO_SCSI_S_OK 0
#define VIRTIO_SCSI_S_OVERRUN 1
#define VIRTIO_SCSI_S_ABORTED 2
#define VIRTIO_SCSI_S_BAD_TARGET 3
#define VIRTIO_SCSI_S_RESET 4
#define VIRTIO_SCSI_S_BUSY 5
#define VIRTIO_SCSI_S_TRANSPORT_FAILURE 6
#define VIRTIO_SCSI_S_TARGET_FAILURE 7
#define VIRTIO_SCSI_S_NEXUS_FAILURE 8
#define VIRTIO_SCSI_S_FAILURE 9
#define VIRTIO_SCSI_S_FUNCTION_SUCCEEDED 10
#define VIRTIO_SCSI_S_FUNCTION_REJECTED 11
#define VIRTIO_SCSI_S_INCORRECT_LUN 12

/* Task management (5.6.6.2). */
#define VIRTIO_SCSI_T_TMF 0
#define VIRTIO_SCSI_T_TMF_LOGICAL_UNIT_RESET 5

/* The request header before the CDB, and the response before the sense bytes. */
#pragma pack(push, 1)
struct virtio_scsi_req_head {
	UINT8 lun[8];
	UINT64 id;
	UINT8 task_attr;
	UINT8 prio;
	UINT8 crn;
};
struct virtio_scsi_resp_head {
	UINT32 sense_len;
	UINT32 residual;
	UINT16 status_qualifier;
	UINT8 status;
	UINT8 response;
};
struct virtio_scsi_tmf_req {
	UINT32 type;
	UINT32 subtype;
	UINT8 lun[8];
	UINT64 id;
};
#pragma pack(pop)
_Static_assert(sizeof(struct virtio_scsi_req_head) == 19, "virtio-scsi request header");
_Static_assert(sizeof(struct virtio_scsi_resp_head) == 12, "virtio-scsi response header");
_Static_assert(sizeof(struct virtio_scsi_tmf_req) == 24, "virtio-scsi TMF request");

/* Where things lie in the shared page. */
#define VIRTIO_SCSI_REQ_AT 0
#define VIRTIO_SCSI_RESP_AT 512
#define VIRTIO_SCSI_TMF_AT 1024
#define VIRTIO_SCSI_TMF_RESP_AT 1088
/* The largest CDB and sense areas the device may ask for (they must fit the page). */
#define VIRTIO_SCSI_MAX_CDB 255
#define VIRTIO_SCSI_MAX_SENSE 255
/* Data descriptors per direction, at most. */
#define VIRTIO_SCSI_MAX_SEGMENTS 8
#define VIRTIO_SCSI_QUEUE_SIZE 64

struct virtio_scsi {
	struct scsi_pass_thru pt;
	struct virtio_dev *dev;
	struct virtio_queue control, request;
	UINT8 *shared; /* one page: request and response headers of both queues */
	UINT64 shared_addr;
	void *shared_mapping;
	UINT32 cdb_size, sense_size; /* what the device's headers hold */
	UINT16 segments;	     /* data descriptors per direction */
	UINT64 next_id;
	bool broken; /* the device failed to come back: requests fail */
};

/* Brings the device up and fills s->pt (initialized here with the virtio-scsi operations)
 * with its limits. dev is the transport, kept. */
EFI_STATUS virtio_scsi_start(struct virtio_scsi *s, struct virtio_dev *dev);

/* Resets the device, so that it stops all DMA, and releases the queues and shared page. */
void virtio_scsi_stop(struct virtio_scsi *s);

/* Stop, then start again (ResetChannel, and after a command timed out). */
EFI_STATUS virtio_scsi_restart(struct virtio_scsi *s);

/* Runs one chain on queue q and waits for it up to timeout_us (0: for ever). EFI_TIMEOUT
 * after which the device was reset; EFI_DEVICE_ERROR when it broke the ring. */
EFI_STATUS virtio_scsi_run(struct virtio_scsi *s, struct virtio_queue *q,
			   const struct virtq_buf *bufs, UINT16 count, UINT64 timeout_us);

/* The pass-thru operations (virtio_scsi_request.c). */
extern const struct scsi_pass_thru_ops virtio_scsi_ops;

#endif
