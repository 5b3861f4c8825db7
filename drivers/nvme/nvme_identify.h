/* Reading what an NVMe controller says of itself and its namespaces (NVM Express 1.4,
 * 5.15): Identify Controller, Identify Namespace and the active namespace ID list. The data
 * comes from the device, so each parser is bounded by the size it is given and refuses
 * what it cannot use rather than guess. Pure: fuzzed (tests/fuzz/fuzz_nvme_identify.c). */
#ifndef DRIVERS_NVME_IDENTIFY_H
#define DRIVERS_NVME_IDENTIFY_H

#include <stdbool.h>
#include <efi/types.h>
#include <efi/status.h>

#define NVME_MIN_BLOCK_SHIFT 9	/* 512 bytes */
#define NVME_MAX_BLOCK_SHIFT 16 /* 64 KiB */

struct nvme_ctrl_info {
	UINT32 namespaces;   /* NN: the largest namespace ID */
	UINT32 max_transfer; /* bytes one command may move (MDTS), 0: no limit */
	bool volatile_cache; /* VWC: writes may sit in a cache until a FLUSH */
	char model[41];	     /* MN, trailing spaces removed */
};

struct nvme_ns_info {
	UINT64 blocks;	   /* NSZE */
	UINT8 block_shift; /* log2 of the logical block size */
	UINT8 eui64[8];	   /* as the data gives it, all zero when the namespace has none */
};

/* Identify Controller data (size bytes, 4096 for a whole one). EFI_UNSUPPORTED when the
 * controller needs queue entries of other sizes than 64 and 16 bytes; EFI_DEVICE_ERROR when
 * the data is too short. */
EFI_STATUS nvme_parse_controller(const UINT8 *data, UINTN size, struct nvme_ctrl_info *info);

/* Identify Namespace data. EFI_NOT_FOUND for an inactive namespace (size 0); EFI_UNSUPPORTED
 * for a format the driver cannot use (metadata, a block size other than a power of two from
 * 512 to 64 KiB); EFI_DEVICE_ERROR for data that contradicts itself (a format index past
 * the formats, a size whose bytes overflow 64 bits) or is too short. */
EFI_STATUS nvme_parse_namespace(const UINT8 *data, UINTN size, struct nvme_ns_info *info);

/* The active namespace ID list (CNS 02h): up to max IDs into ids, *count how many. The IDs
 * must rise, each above after and at most largest (NN; 0: no limit); EFI_DEVICE_ERROR
 * otherwise. */
EFI_STATUS nvme_parse_ns_list(const UINT8 *data, UINTN size, UINT32 after, UINT32 largest,
			      UINT32 *ids, UINT32 max, UINT32 *count);

#endif
