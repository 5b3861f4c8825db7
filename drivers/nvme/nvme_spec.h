/* NVM Express 1.4 as the driver uses it: the controller's registers (section 3.1), the
 * submission and completion queue entries (4.2, 4.6), the admin and NVM command opcodes, and
 * where the fields the driver reads lie in the Identify data (5.15). */
#ifndef DRIVERS_NVME_SPEC_H
#define DRIVERS_NVME_SPEC_H

#include <efi/types.h>

#define NVME_BAR 0 /* MLBAR/MUBAR: the registers, a 64-bit memory BAR */

/* Controller registers. */
#define NVME_REG_CAP 0x00
#define NVME_REG_VS 0x08
#define NVME_REG_INTMS 0x0c
#define NVME_REG_CC 0x14
#define NVME_REG_CSTS 0x1c
#define NVME_REG_AQA 0x24
#define NVME_REG_ASQ 0x28
#define NVME_REG_ACQ 0x30
#define NVME_REG_DOORBELLS 0x1000

/* CAP fields. */
#define NVME_CAP_MQES(cap) ((UINT32)((cap)&0xffff))	  /* largest queue, 0-based */
#define NVME_CAP_TO(cap) ((UINT32)(((cap) >> 24) & 0xff)) /* 500 ms units */
#define NVME_CAP_DSTRD(cap) ((UINT32)(((cap) >> 32) & 0xf))
#define NVME_CAP_CSS_NVM(cap) (((cap) >> 37) & 1)
#define NVME_CAP_MPSMIN(cap) ((UINT32)(((cap) >> 48) & 0xf)) /* 2^(12 + n) bytes */

/* CC fields. */
#define NVME_CC_EN 0x1u
#define NVME_CC_CSS_NVM (0u << 4)
#define NVME_CC_MPS_4K (0u << 7)
#define NVME_CC_AMS_RR (0u << 11)
#define NVME_CC_SHN_MASK (3u << 14)
#define NVME_CC_SHN_NORMAL (1u << 14)
#define NVME_CC_IOSQES (6u << 16) /* 64-byte entries */
#define NVME_CC_IOCQES (4u << 20) /* 16-byte entries */

/* CSTS fields. */
#define NVME_CSTS_RDY 0x1u
#define NVME_CSTS_CFS 0x2u
#define NVME_CSTS_SHST_MASK (3u << 2)
#define NVME_CSTS_SHST_DONE (2u << 2)

#define NVME_PAGE_SIZE 4096u /* the memory page size the driver sets (CC.MPS 0) */

/* A submission queue entry (64 bytes). */
struct nvme_sqe {
	UINT32 cdw0; /* opcode [7:0], FUSE [9:8], PSDT [15:14], CID [31:16] */
	UINT32 nsid;
	UINT32 cdw2, cdw3;
	UINT64 mptr;
	UINT64 prp1, prp2;
	UINT32 cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};

/* A completion queue entry (16 bytes). */
struct nvme_cqe {
	UINT32 dw0, dw1;
	UINT16 sq_head, sq_id;
	UINT16 cid;
	UINT16 status; /* phase [0], SC [8:1], SCT [11:9], CRD, M, DNR [15] */
};

_Static_assert(sizeof(struct nvme_sqe) == 64, "submission queue entry");
_Static_assert(sizeof(struct nvme_cqe) == 16, "completion queue entry");

#define NVME_CQE_PHASE 0x1u
#define NVME_CQE_SC(status) (((status) >> 1) & 0xff)
#define NVME_CQE_SCT(status) (((status) >> 9) & 0x7)
#define NVME_SC_INVALID_OPCODE 0x01 /* generic status (SCT 0) */

/* Admin command opcodes. */
#define NVME_ADMIN_DELETE_SQ 0x00
#define NVME_ADMIN_CREATE_SQ 0x01
#define NVME_ADMIN_DELETE_CQ 0x04
#define NVME_ADMIN_CREATE_CQ 0x05
#define NVME_ADMIN_IDENTIFY 0x06

/* NVM command opcodes. */
#define NVME_CMD_FLUSH 0x00
#define NVME_CMD_WRITE 0x01
#define NVME_CMD_READ 0x02

/* Identify CNS values (CDW10). */
#define NVME_CNS_NAMESPACE 0x00
#define NVME_CNS_CONTROLLER 0x01
#define NVME_CNS_ACTIVE_NS_LIST 0x02

#define NVME_IDENTIFY_BYTES 4096u

/* Identify Controller fields (byte offsets). */
#define NVME_IDC_SN 4
#define NVME_IDC_MN 24
#define NVME_IDC_MDTS 77
#define NVME_IDC_VER 80
#define NVME_IDC_SQES 512
#define NVME_IDC_CQES 513
#define NVME_IDC_NN 516
#define NVME_IDC_VWC 525

/* Identify Namespace fields (byte offsets). */
#define NVME_IDN_NSZE 0
#define NVME_IDN_NCAP 8
#define NVME_IDN_NLBAF 25
#define NVME_IDN_FLBAS 26
#define NVME_IDN_EUI64 120
#define NVME_IDN_LBAF 128 /* 16 (64 from 2.0 on) formats of 4 bytes */

#endif
