#define LOG_PREFIX "hii config: "
/* The routing protocol's conversions between configuration strings and a driver's
 * storage block (UEFI 2.10, 35.4.2: BlockToConfig, ConfigToBlock, GetAltConfig). Each
 * element is checked against the block's size before a byte is read or written. */
#include "hii.h"
#include <ember/core/hii_config.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>

static EFI_STATUS refuse(const struct hii_cfg *c, EFI_STRING *progress, EFI_STATUS status)
{
	log_debug("%s at character %u\n", c->problem ? c->problem : "element outside the block",
		  (unsigned)c->at);
	*progress = (EFI_STRING)c->s + c->at;
	return status;
}

/* Appends one request's header and its elements with their VALUE from the block. */
static EFI_STATUS block_request(struct hii_cfg *c, const UINT8 *block, UINTN size,
				struct hii_cfg_out *out, EFI_STRING *progress)
{
	struct hii_cfg_hdr h;
	struct hii_cfg_elem e;
	int r;

	if (!hii_cfg_header(c, &h))
		return refuse(c, progress, EFI_INVALID_PARAMETER);
	if (out->len)
		hii_cfg_out_put8(out, "&");
	hii_cfg_out_put16(out, c->s + h.start, c->at - h.start);
	while ((r = hii_cfg_element(c, &e)) == 1) {
		if (!e.block || e.has_value) {
			c->at = e.start;
			c->problem = "not an OFFSET/WIDTH request element";
			return refuse(c, progress, EFI_INVALID_PARAMETER);
		}
		if (e.offset + e.width > size) {
			c->at = e.start;
			return refuse(c, progress, EFI_DEVICE_ERROR);
		}
		hii_cfg_out_put16(out, c->s + e.start - 1, c->at - e.start + 1);
		hii_cfg_out_put8(out, "&VALUE=");
		hii_cfg_out_hex(out, block + e.offset, e.width, true);
	}
	return r < 0 ? refuse(c, progress, EFI_INVALID_PARAMETER) : EFI_SUCCESS;
}

/* BlockToConfig: a <ConfigResp> of the request's elements read from the block. */
EFI_STATUS EFIAPI hii_block_to_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
				      const EFI_STRING ConfigRequest, const UINT8 *Block,
				      const UINTN BlockSize, EFI_STRING *Config,
				      EFI_STRING *Progress)
{
	struct hii_cfg_out out = {0};
	struct hii_cfg c;
	EFI_STATUS status = EFI_SUCCESS;

	if (!Progress || !Config)
		return EFI_INVALID_PARAMETER;
	*Progress = ConfigRequest;
	*Config = NULL;
	if (!ConfigRequest || !Block)
		return EFI_INVALID_PARAMETER;
	hii_cfg_init(&c, ConfigRequest, str16_len(ConfigRequest));
	do
		status = block_request(&c, Block, BlockSize, &out, Progress);
	while (!EFI_ERROR(status) && !hii_cfg_done(&c));
	*Config = hii_cfg_out_take(&out);
	if (!EFI_ERROR(status) && !*Config)
		status = EFI_OUT_OF_RESOURCES;
	if (EFI_ERROR(status)) {
		pool_free(*Config);
		*Config = NULL;
		return status;
	}
	*Progress = ConfigRequest + c.len;
	return EFI_SUCCESS;
}

/* Walks a <ConfigResp>'s elements: the largest end, and writes them when block is set. */
static EFI_STATUS resp_walk(struct hii_cfg *c, UINT8 *block, UINT64 *end)
{
	struct hii_cfg_hdr h;
	struct hii_cfg_elem e;

	do {
		int r;

		if (!hii_cfg_header(c, &h))
			return EFI_INVALID_PARAMETER;
		while ((r = hii_cfg_element(c, &e)) == 1) {
			if (!e.block || !e.has_value) {
				c->at = e.start;
				c->problem = "not an OFFSET/WIDTH/VALUE element";
				return EFI_INVALID_PARAMETER;
			}
			if (e.offset + e.width > *end)
				*end = e.offset + e.width;
			if (block)
				hii_cfg_value(c->s + e.value_at, e.value_len, block + e.offset,
					      e.width);
		}
		if (r < 0)
			return EFI_INVALID_PARAMETER;
	} while (!hii_cfg_done(c));
	return EFI_SUCCESS;
}

/* ConfigToBlock: the response's values written into the block; nothing is written unless
 * the whole response is well formed and fits. */
EFI_STATUS EFIAPI hii_config_to_block(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
				      const EFI_STRING ConfigResp, UINT8 *Block, UINTN *BlockSize,
				      EFI_STRING *Progress)
{
	struct hii_cfg c;
	UINT64 end = 0;

	if (!Progress)
		return EFI_INVALID_PARAMETER;
	*Progress = ConfigResp;
	if (!ConfigResp || !BlockSize)
		return EFI_INVALID_PARAMETER;
	hii_cfg_init(&c, ConfigResp, str16_len(ConfigResp));
	if (EFI_ERROR(resp_walk(&c, NULL, &end)))
		return refuse(&c, Progress, EFI_INVALID_PARAMETER);
	if (end > *BlockSize || (end && !Block)) {
		*BlockSize = (UINTN)end;
		return EFI_BUFFER_TOO_SMALL;
	}
	hii_cfg_init(&c, ConfigResp, c.len);
	end = 0;
	resp_walk(&c, Block, &end);
	/* On success BlockSize is the largest index written (35.4.2). */
	if (end)
		*BlockSize = (UINTN)end - 1;
	*Progress = ConfigResp + c.len;
	return EFI_SUCCESS;
}

static bool header_matches(const CHAR16 *s, const struct hii_cfg_hdr *h, const EFI_GUID *guid,
			   const EFI_STRING name, const EFI_DEVICE_PATH_PROTOCOL *path,
			   const UINT16 *alt_id)
{
	UINT8 bytes[512];
	size_t size = h->path_len / 2;

	if (guid && !guid_eq(guid, &h->guid))
		return false;
	if (!hii_cfg_name_is(s, h, name))
		return false;
	if (path && (size > sizeof(bytes) || dp_size(path) != size ||
		     !hii_cfg_hex_bytes(s + h->path_at, h->path_len, bytes, size) ||
		     mem_cmp(bytes, path, size)))
		return false;
	return alt_id ? h->has_alt && h->alt_id == *alt_id : !h->has_alt;
}

/* GetAltConfig: the request of a <MultiConfigAltResp> whose header matches (the one
 * without ALTCFG when AltCfgId is NULL), as a <ConfigResp> without its ALTCFG. */
EFI_STATUS EFIAPI hii_get_alt_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
				     const EFI_STRING ConfigResp, const EFI_GUID *Guid,
				     const EFI_STRING Name,
				     const EFI_DEVICE_PATH_PROTOCOL *DevicePath,
				     const UINT16 *AltCfgId, EFI_STRING *AltCfgResp)
{
	struct hii_cfg c;

	if (!ConfigResp || !AltCfgResp)
		return EFI_INVALID_PARAMETER;
	*AltCfgResp = NULL;
	hii_cfg_init(&c, ConfigResp, str16_len(ConfigResp));
	while (!hii_cfg_done(&c)) {
		struct hii_cfg_out out = {0};
		struct hii_cfg_hdr h;
		struct hii_cfg_elem e;
		size_t body;
		int r;

		if (!hii_cfg_header(&c, &h))
			return EFI_INVALID_PARAMETER;
		body = c.at;
		while ((r = hii_cfg_element(&c, &e)) == 1)
			;
		if (r < 0)
			return EFI_INVALID_PARAMETER;
		if (!header_matches(ConfigResp, &h, Guid, Name, DevicePath, AltCfgId))
			continue;
		hii_cfg_out_put16(&out, ConfigResp + h.start, h.path_at + h.path_len - h.start);
		hii_cfg_out_put16(&out, ConfigResp + body, c.at - body);
		*AltCfgResp = hii_cfg_out_take(&out);
		return *AltCfgResp ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
	}
	return EFI_NOT_FOUND;
}
