/* Constants and layouts of the virtio 1.x specification (OASIS virtio v1.1/1.2) that Ember's
 * virtio drivers use: PCI identification, device status, feature bits, the PCI capability
 * and register maps (modern and legacy), split virtqueues and virtio-blk. All fields are
 * little-endian, as x86 is. */
#ifndef DRIVERS_VIRTIO_SPEC_H
#define DRIVERS_VIRTIO_SPEC_H

#include <efi/types.h>

/* ---- PCI identification (4.1.2) ---- */
#define VIRTIO_PCI_VENDOR 0x1af4
#define VIRTIO_PCI_LEGACY_BLK 0x1001  /* transitional block device */
#define VIRTIO_PCI_MODERN_BASE 0x1040 /* + device type */
#define VIRTIO_ID_BLOCK 2

/* ---- Device status (2.1) ---- */
#define VIRTIO_STATUS_ACKNOWLEDGE 1
#define VIRTIO_STATUS_DRIVER 2
#define VIRTIO_STATUS_DRIVER_OK 4
#define VIRTIO_STATUS_FEATURES_OK 8
#define VIRTIO_STATUS_NEEDS_RESET 64
#define VIRTIO_STATUS_FAILED 128

/* ---- Reserved feature bits (6) ---- */
#define VIRTIO_F_VERSION_1 (1ULL << 32)
#define VIRTIO_F_ACCESS_PLATFORM (1ULL << 33)

/* ---- Modern PCI capabilities (4.1.4) ---- */
#define PCI_CAP_ID_VNDR 0x09
#define VIRTIO_PCI_CAP_COMMON_CFG 1
#define VIRTIO_PCI_CAP_NOTIFY_CFG 2
#define VIRTIO_PCI_CAP_ISR_CFG 3
#define VIRTIO_PCI_CAP_DEVICE_CFG 4
#define VIRTIO_PCI_CAP_PCI_CFG 5

#pragma pack(push, 1)
struct virtio_pci_cap {
	UINT8 cap_vndr; /* PCI_CAP_ID_VNDR */
	UINT8 cap_next;
	UINT8 cap_len;
	UINT8 cfg_type; /* VIRTIO_PCI_CAP_* */
	UINT8 bar;
	UINT8 id;
	UINT8 padding[2];
	UINT32 offset; /* within the BAR */
	UINT32 length;
};
#pragma pack(pop)
_Static_assert(sizeof(struct virtio_pci_cap) == 16, "virtio_pci_cap layout");
/* The notify capability carries a u32 notify_off_multiplier after the common part. */
#define VIRTIO_PCI_NOTIFY_MULTIPLIER_AT 16

/* Common configuration structure (4.1.4.3): register offsets. */
#define VIRTIO_COMMON_DFSELECT 0x00
#define VIRTIO_COMMON_DF 0x04
#define VIRTIO_COMMON_GFSELECT 0x08
#define VIRTIO_COMMON_GF 0x0c
#define VIRTIO_COMMON_MSIX 0x10
#define VIRTIO_COMMON_NUMQ 0x12
#define VIRTIO_COMMON_STATUS 0x14
#define VIRTIO_COMMON_CFGGENERATION 0x15
#define VIRTIO_COMMON_Q_SELECT 0x16
#define VIRTIO_COMMON_Q_SIZE 0x18
#define VIRTIO_COMMON_Q_MSIX 0x1a
#define VIRTIO_COMMON_Q_ENABLE 0x1c
#define VIRTIO_COMMON_Q_NOFF 0x1e
#define VIRTIO_COMMON_Q_DESCLO 0x20
#define VIRTIO_COMMON_Q_DESCHI 0x24
#define VIRTIO_COMMON_Q_AVAILLO 0x28
#define VIRTIO_COMMON_Q_AVAILHI 0x2c
#define VIRTIO_COMMON_Q_USEDLO 0x30
#define VIRTIO_COMMON_Q_USEDHI 0x34
#define VIRTIO_MSI_NO_VECTOR 0xffff

/* Legacy interface (4.1.4.8): registers in BAR 0, I/O space. */
#define VIRTIO_LEGACY_HOST_FEATURES 0x00
#define VIRTIO_LEGACY_GUEST_FEATURES 0x04
#define VIRTIO_LEGACY_QUEUE_PFN 0x08
#define VIRTIO_LEGACY_QUEUE_SIZE 0x0c
#define VIRTIO_LEGACY_QUEUE_SELECT 0x0e
#define VIRTIO_LEGACY_QUEUE_NOTIFY 0x10
#define VIRTIO_LEGACY_STATUS 0x12
#define VIRTIO_LEGACY_ISR 0x13
#define VIRTIO_LEGACY_CONFIG 0x14 /* with MSI-X disabled, which Ember leaves it */
#define VIRTIO_LEGACY_PFN_SHIFT 12
#define VIRTIO_LEGACY_QUEUE_ALIGN 4096

/* ---- Split virtqueues (2.7) ---- */
#define VIRTQ_DESC_F_NEXT 1
#define VIRTQ_DESC_F_WRITE 2
#define VIRTQ_DESC_F_INDIRECT 4

struct virtq_desc {
	UINT64 addr;
	UINT32 len;
	UINT16 flags;
	UINT16 next;
};
_Static_assert(sizeof(struct virtq_desc) == 16, "virtq_desc layout");

struct virtq_avail {
	UINT16 flags;
	UINT16 idx;
	UINT16 ring[]; /* then u16 used_event */
};

struct virtq_used_elem {
	UINT32 id;
	UINT32 len;
};

struct virtq_used {
	UINT16 flags;
	UINT16 idx;
	struct virtq_used_elem ring[]; /* then u16 avail_event */
};

/* ---- virtio-blk (5.2) ---- */
#define VIRTIO_BLK_F_SIZE_MAX (1ULL << 1)
#define VIRTIO_BLK_F_SEG_MAX (1ULL << 2)
#define VIRTIO_BLK_F_GEOMETRY (1ULL << 4)
#define VIRTIO_BLK_F_RO (1ULL << 5)
#define VIRTIO_BLK_F_BLK_SIZE (1ULL << 6)
#define VIRTIO_BLK_F_FLUSH (1ULL << 9)
#define VIRTIO_BLK_F_TOPOLOGY (1ULL << 10)
#define VIRTIO_BLK_F_CONFIG_WCE (1ULL << 11)

/* Device configuration offsets. */
#define VIRTIO_BLK_CFG_CAPACITY 0      /* u64, in 512-byte sectors */
#define VIRTIO_BLK_CFG_SIZE_MAX 8      /* u32 */
#define VIRTIO_BLK_CFG_SEG_MAX 12      /* u32 */
#define VIRTIO_BLK_CFG_BLK_SIZE 20     /* u32 */
#define VIRTIO_BLK_CFG_PHYS_EXP 24     /* u8: log2(physical / logical blocks) */
#define VIRTIO_BLK_CFG_ALIGN_OFFSET 25 /* u8: offset of the first aligned logical block */
#define VIRTIO_BLK_CFG_MIN_IO 26       /* u16, in logical blocks */
#define VIRTIO_BLK_CFG_OPT_IO 28       /* u32, in logical blocks */
#define VIRTIO_BLK_CFG_WRITEBACK 32    /* u8 */

#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_T_GET_ID 8
#define VIRTIO_BLK_ID_BYTES 20

#define VIRTIO_BLK_S_OK 0
#define VIRTIO_BLK_S_IOERR 1
#define VIRTIO_BLK_S_UNSUPP 2

#define VIRTIO_BLK_SECTOR_SIZE 512

struct virtio_blk_req_header {
	UINT32 type;
	UINT32 reserved;
	UINT64 sector;
};
_Static_assert(sizeof(struct virtio_blk_req_header) == 16, "virtio-blk request header");

#endif
