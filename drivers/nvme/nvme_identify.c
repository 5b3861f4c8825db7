/* Parsing Identify data (NVM Express 1.4, figures 247, 249 and 245). */
#define LOG_PREFIX "nvme: "
#include "nvme_identify.h"
#include "nvme_spec.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define ENTRY_SQ 6 /* log2 of the queue entry sizes the driver uses */
#define ENTRY_CQ 4
#define MAX_FORMATS 64
#define MDTS_LIMIT 20 /* 2^20 pages: more than the driver ever moves at once */

static UINT32 rd32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static UINT64 rd64(const UINT8 *p)
{
	return (UINT64)rd32(p) | (UINT64)rd32(p + 4) << 32;
}

/* An entry-size byte (SQES, CQES): required size in [3:0], largest in [7:4], as powers of
 * two; 0 in both from controllers before 1.2 means "the standard size". */
static bool entry_size_ok(UINT8 field, UINT8 want)
{
	UINT8 min = field & 0xf, max = field >> 4;

	if (!field)
		return true;
	return min <= want && want <= max;
}

static void copy_model(char *dst, const UINT8 *src, UINTN len)
{
	UINTN n = 0;

	for (UINTN i = 0; i < len; i++) {
		/* Printable ASCII only: the text goes to logs and component names. */
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
		if (dst[i] != ' ')
			n = i + 1;
	}
	dst[n] = 0;
}

EFI_STATUS nvme_parse_controller(const UINT8 *data, UINTN size, struct nvme_ctrl_info *info)
{
	UINT8 mdts;

	mem_set(info, 0, sizeof(*info));
	if (size < NVME_IDENTIFY_BYTES) {
		log_debug("Identify Controller: %u bytes\n", (unsigned)size);
		return EFI_DEVICE_ERROR;
	}
	if (!entry_size_ok(data[NVME_IDC_SQES], ENTRY_SQ) ||
	    !entry_size_ok(data[NVME_IDC_CQES], ENTRY_CQ)) {
		log_debug("queue entry sizes %#x/%#x\n", data[NVME_IDC_SQES], data[NVME_IDC_CQES]);
		return EFI_UNSUPPORTED;
	}
	mdts = data[NVME_IDC_MDTS];
	if (mdts && mdts < MDTS_LIMIT)
		info->max_transfer = NVME_PAGE_SIZE << mdts;
	info->namespaces = rd32(data + NVME_IDC_NN);
	info->volatile_cache = data[NVME_IDC_VWC] & 1;
	copy_model(info->model, data + NVME_IDC_MN, 40);
	return EFI_SUCCESS;
}

/* The index of the format in use: FLBAS [3:0], and [6:5] as its high bits from 2.0 on. */
static UINT8 format_index(UINT8 flbas)
{
	return (UINT8)((flbas & 0xf) | ((flbas >> 1) & 0x30));
}

EFI_STATUS nvme_parse_namespace(const UINT8 *data, UINTN size, struct nvme_ns_info *info)
{
	const UINT8 *lbaf;
	UINT8 index, shift;
	UINT16 metadata;

	mem_set(info, 0, sizeof(*info));
	if (size < NVME_IDN_LBAF + 4 * MAX_FORMATS) {
		log_debug("Identify Namespace: %u bytes\n", (unsigned)size);
		return EFI_DEVICE_ERROR;
	}
	info->blocks = rd64(data + NVME_IDN_NSZE);
	if (!info->blocks)
		return EFI_NOT_FOUND;
	index = format_index(data[NVME_IDN_FLBAS]);
	if (index > data[NVME_IDN_NLBAF] || index >= MAX_FORMATS) {
		log_debug("format %u of %u\n", index, data[NVME_IDN_NLBAF] + 1);
		return EFI_DEVICE_ERROR;
	}
	lbaf = data + NVME_IDN_LBAF + 4 * index;
	metadata = (UINT16)(lbaf[0] | lbaf[1] << 8);
	shift = lbaf[2];
	if (metadata || shift < NVME_MIN_BLOCK_SHIFT || shift > NVME_MAX_BLOCK_SHIFT) {
		log_debug("format %u: %u metadata bytes, blocks of 2^%u\n", index, metadata, shift);
		return EFI_UNSUPPORTED;
	}
	if (info->blocks >> (64 - shift)) {
		log_debug("%llu blocks of 2^%u bytes\n", (unsigned long long)info->blocks, shift);
		return EFI_DEVICE_ERROR;
	}
	info->block_shift = shift;
	mem_copy(info->eui64, data + NVME_IDN_EUI64, sizeof(info->eui64));
	return EFI_SUCCESS;
}

EFI_STATUS nvme_parse_ns_list(const UINT8 *data, UINTN size, UINT32 after, UINT32 largest,
			      UINT32 *ids, UINT32 max, UINT32 *count)
{
	UINT32 last = after;

	*count = 0;
	for (UINTN at = 0; at + 4 <= size && *count < max; at += 4) {
		UINT32 id = rd32(data + at);

		if (!id)
			break;
		/* 0xFFFFFFFF is the broadcast value, never a namespace. */
		if (id <= last || id == 0xffffffff || (largest && id > largest)) {
			log_debug("namespace list: ID %#x after %#x (NN %u)\n", id, last, largest);
			return EFI_DEVICE_ERROR;
		}
		ids[(*count)++] = last = id;
	}
	return EFI_SUCCESS;
}
