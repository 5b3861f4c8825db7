#define LOG_PREFIX "hii config: "
/* EFI_HII_CONFIG_ROUTING_PROTOCOL (UEFI 2.10, 35.4.2): sends each request of a
 * configuration string to the Config Access protocol of the driver its PATH names, and
 * converts between configuration strings and storage blocks. Malformed strings are
 * refused with EFI_INVALID_PARAMETER and Progress at the first character not understood;
 * a PATH no driver has gives EFI_NOT_FOUND with Progress at its request. */
#include "hii.h"
#include <ember/core/hii_config.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define DEVICE_PATH_MAX 4096

static bool path_is(const CHAR16 *s, const struct hii_cfg_hdr *h,
		    const EFI_DEVICE_PATH_PROTOCOL *path, UINT8 *bytes)
{
	size_t size = h->path_len / 2;

	return dp_size(path) == size && !mem_cmp(path, bytes, size);
}

/* The Config Access protocol of the handle whose device path PATH spells. */
EFI_HII_CONFIG_ACCESS_PROTOCOL *hii_config_access_for(const CHAR16 *s, const struct hii_cfg_hdr *h)
{
	EFI_HII_CONFIG_ACCESS_PROTOCOL *found = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	UINT8 *bytes;

	if (h->path_len / 2 > DEVICE_PATH_MAX || !(bytes = pool_alloc(h->path_len / 2)))
		return NULL;
	if (!hii_cfg_hex_bytes(s + h->path_at, h->path_len, bytes, h->path_len / 2) ||
	    !dp_is_valid((EFI_DEVICE_PATH_PROTOCOL *)bytes, h->path_len / 2))
		goto out;
	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_hii_config_access_protocol_guid, NULL,
					   &count, &handles)))
		goto out;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path;
		void *access;

		if (!EFI_ERROR(
			protocol_get(handles[i], &efi_device_path_protocol_guid, (void **)&path)) &&
		    path_is(s, h, path, bytes) &&
		    !EFI_ERROR(
			protocol_get(handles[i], &efi_hii_config_access_protocol_guid, &access)))
			found = access;
	}
	pool_free(handles);
out:
	pool_free(bytes);
	return found;
}

/* Progress at a place of the caller's string. */
static EFI_STATUS refuse(const struct hii_cfg *c, EFI_STRING *progress, EFI_STATUS status)
{
	log_debug("%s at character %u\n", c->problem ? c->problem : "no driver for the request",
		  (unsigned)c->at);
	*progress = (EFI_STRING)c->s + c->at;
	return status;
}

/* Reads one request (header and elements) at c->at; its end is c->at after. */
static bool one_request(struct hii_cfg *c, struct hii_cfg_hdr *h)
{
	struct hii_cfg_elem e;
	int r;

	if (!hii_cfg_header(c, h))
		return false;
	while ((r = hii_cfg_element(c, &e)) == 1)
		;
	return r == 0;
}

typedef EFI_STATUS (*route_fn)(EFI_HII_CONFIG_ACCESS_PROTOCOL *access, CHAR16 *request,
			       EFI_STRING *progress, struct hii_cfg_out *out);

/* Asks a driver for one request and appends its answer. */
EFI_STATUS hii_config_extract_one(EFI_HII_CONFIG_ACCESS_PROTOCOL *access, CHAR16 *request,
				  EFI_STRING *progress, struct hii_cfg_out *out)
{
	EFI_STRING results = NULL;
	EFI_STATUS status = access->ExtractConfig(access, request, progress, &results);

	if (EFI_ERROR(status))
		return status;
	if (results) {
		if (out->len)
			hii_cfg_out_put8(out, "&");
		hii_cfg_out_put16(out, results, str16_len(results));
		pool_free(results);
	}
	return out->failed ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
}

static EFI_STATUS route_one(EFI_HII_CONFIG_ACCESS_PROTOCOL *access, CHAR16 *request,
			    EFI_STRING *progress, struct hii_cfg_out *out)
{
	return access->RouteConfig(access, request, progress);
}

/* Hands a copy of one request to its driver; Progress mapped back into the caller's. */
static EFI_STATUS hand_over(const struct hii_cfg *c, const struct hii_cfg_hdr *h, route_fn fn,
			    EFI_STRING *progress, struct hii_cfg_out *out)
{
	EFI_HII_CONFIG_ACCESS_PROTOCOL *access = hii_config_access_for(c->s, h);
	size_t n = c->at - h->start;
	EFI_STRING driver_progress = NULL;
	CHAR16 *copy;
	EFI_STATUS status;

	if (!access) {
		*progress = (EFI_STRING)c->s + h->start;
		log_debug("no Config Access for the request at %u\n", (unsigned)h->start);
		return EFI_NOT_FOUND;
	}
	copy = pool_alloc((n + 1) * sizeof(CHAR16));
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	mem_copy(copy, c->s + h->start, n * sizeof(CHAR16));
	status = fn(access, copy, &driver_progress, out);
	*progress = (EFI_STRING)c->s + h->start;
	if (EFI_ERROR(status) && driver_progress >= copy && driver_progress <= copy + n)
		*progress += driver_progress - copy;
	pool_free(copy);
	return status;
}

/* Routes each request of a <Multi...> string through fn. */
static EFI_STATUS route_all(const EFI_STRING text, route_fn fn, EFI_STRING *progress,
			    struct hii_cfg_out *out)
{
	struct hii_cfg c;
	struct hii_cfg_hdr h;

	hii_cfg_init(&c, text, str16_len(text));
	do {
		EFI_STATUS status;

		if (!one_request(&c, &h))
			return refuse(&c, progress, EFI_INVALID_PARAMETER);
		status = hand_over(&c, &h, fn, progress, out);
		if (EFI_ERROR(status))
			return status;
	} while (!hii_cfg_done(&c));
	*progress = text + c.len;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI routing_extract_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
						const EFI_STRING Request, EFI_STRING *Progress,
						EFI_STRING *Results)
{
	struct hii_cfg_out out = {0};
	EFI_STATUS status;

	if (!Progress || !Results)
		return EFI_INVALID_PARAMETER;
	*Progress = Request;
	*Results = NULL;
	if (!Request)
		return EFI_INVALID_PARAMETER;
	status = route_all(Request, hii_config_extract_one, Progress, &out);
	*Results = hii_cfg_out_take(&out);
	if (!EFI_ERROR(status) && !*Results)
		status = EFI_OUT_OF_RESOURCES;
	if (EFI_ERROR(status)) {
		pool_free(*Results);
		*Results = NULL;
	}
	return status;
}

static EFI_STATUS EFIAPI routing_route_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
					      const EFI_STRING Configuration, EFI_STRING *Progress)
{
	if (!Progress)
		return EFI_INVALID_PARAMETER;
	*Progress = Configuration;
	if (!Configuration)
		return EFI_INVALID_PARAMETER;
	return route_all(Configuration, route_one, Progress, NULL);
}

/* ExportConfig: every driver's whole configuration: the varstores of its forms, or, for a
 * driver without forms, whatever it gives for a NULL request (35.5.1). */
static EFI_STATUS EFIAPI routing_export_config(const EFI_HII_CONFIG_ROUTING_PROTOCOL *This,
					       EFI_STRING *Results)
{
	struct hii_cfg_out out = {0};
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (!Results)
		return EFI_INVALID_PARAMETER;
	handle_locate_buffer(ByProtocol, &efi_hii_config_access_protocol_guid, NULL, &count,
			     &handles);
	for (UINTN i = 0; i < count; i++) {
		EFI_HII_CONFIG_ACCESS_PROTOCOL *access;
		EFI_STRING progress;

		if (!EFI_ERROR(protocol_get(handles[i], &efi_hii_config_access_protocol_guid,
					    (void **)&access)) &&
		    !hii_config_export_forms(handles[i], access, &out))
			hii_config_extract_one(access, NULL, &progress, &out);
	}
	pool_free(handles);
	*Results = hii_cfg_out_take(&out);
	return *Results ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

EFI_HII_CONFIG_ROUTING_PROTOCOL hii_config_routing_protocol = {
    routing_extract_config, routing_export_config, routing_route_config,
    hii_block_to_config,    hii_config_to_block,   hii_get_alt_config};
