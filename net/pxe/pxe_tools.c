/* EMBER_NET_TOOLS_PROTOCOL (include/ember/net/net_tools.h): ping and an HTTP GET into a
 * buffer, for the shell, over the PXE driver's stack. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include "pxe.h"

#define NS_PER_MS 1000000ull

/* The device behind This when it is ours and has an address; *status says why not. */
static struct pxe_dev *tools_dev(EMBER_NET_TOOLS_PROTOCOL *this, EFI_STATUS *status)
{
	struct pxe_dev *d = NULL;

	*status = EFI_INVALID_PARAMETER;
	if (this && mem_is_allocated(this, sizeof(*this)))
		d = container_of(this, struct pxe_dev, tools);
	if (!d || d->signature != PXE_SIGNATURE)
		return NULL;
	*status = d->ip ? pxe_link_up(d) : EFI_NO_MAPPING;
	return EFI_ERROR(*status) ? NULL : d;
}

static EFI_STATUS EFIAPI tools_ping(EMBER_NET_TOOLS_PROTOCOL *this, EFI_IPv4_ADDRESS *address,
				    UINT16 seq, UINT32 timeout_ms, UINT32 *rtt_us)
{
	EFI_STATUS status;
	struct pxe_dev *d = tools_dev(this, &status);
	UINT64 rtt = 0;

	if (!address || !rtt_us || !timeout_ms)
		return EFI_INVALID_PARAMETER;
	if (!d)
		return status;
	status = pxe_ping(d, net_get32(address->Addr), seq, timeout_ms * NS_PER_MS, &rtt);
	*rtt_us = (UINT32)MIN(rtt / 1000, (UINT64)0xffffffffu);
	return status;
}

static EFI_STATUS EFIAPI tools_http_get(EMBER_NET_TOOLS_PROTOCOL *this, CONST CHAR8 *url,
					VOID **body, UINT64 *size)
{
	EFI_STATUS status;
	struct pxe_dev *d = tools_dev(this, &status);
	struct pxe_http_body *b;

	if (!url || !body || !size || !pxe_is_url(url))
		return EFI_INVALID_PARAMETER;
	if (!d)
		return status;
	b = pool_alloc(sizeof(*b));
	if (!b)
		return EFI_OUT_OF_RESOURCES;
	status = pxe_http_get(d, url, false, b);
	if (!EFI_ERROR(status)) {
		/* An empty body is still a buffer the caller frees. */
		*body = b->data ? b->data : pool_alloc(1);
		*size = b->size;
		if (!*body)
			status = EFI_OUT_OF_RESOURCES;
	}
	pool_free(b);
	return status;
}

void pxe_tools_init(struct pxe_dev *d)
{
	d->tools = (EMBER_NET_TOOLS_PROTOCOL){
	    .Revision = EMBER_NET_TOOLS_REVISION,
	    .Ping = tools_ping,
	    .HttpGet = tools_http_get,
	};
}
