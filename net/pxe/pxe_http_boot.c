/* HTTP boot (UEFI 2.10, 24.7) on a NIC: a child handle MAC()/IPv4()/Uri() with its own
 * EFI_LOAD_FILE_PROTOCOL, as OVMF makes, that boots the URL DHCP names as the boot file
 * (asked for as the HTTPClient), and the NIC's LoadFile given a remaining path
 * [IPv4()]/Uri(url), which is how a boot option carrying a URL reaches it. The size query
 * downloads the whole body and keeps it for the call that loads it; an ISO or a disk image
 * comes back with EFI_WARN_FILE_SYSTEM so the boot manager puts it in a RAM disk. */
#define LOG_PREFIX "http: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/format.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include "pxe.h"

static char http_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool http_has_prefix(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (http_lower(*s) != *prefix)
			return false;
	return true;
}

static bool http_has_suffix(const char *s, const char *suffix)
{
	size_t n = str8_len(s), m = str8_len(suffix);

	return n >= m && http_has_prefix(s + n - m, suffix);
}

bool pxe_is_url(const char *s)
{
	return http_has_prefix(s, "http://") || http_has_prefix(s, "https://");
}

/* An ISO or disk image (media types of UEFI 2.10, 24.7.2, or the name's extension). */
static bool http_is_disk_image(const struct pxe_http_body *b)
{
	return !str8_cmp(b->content_type, "application/vnd.efi-iso") ||
	       !str8_cmp(b->content_type, "application/vnd.efi-img") ||
	       http_has_suffix(b->url, ".iso") || http_has_suffix(b->url, ".img");
}

/* LoadFile's second call: the kept body into the caller's buffer. */
static EFI_STATUS http_deliver(struct pxe_dev *d, UINTN *size, VOID *buffer)
{
	struct pxe_http_body *b = &d->http_cache;
	bool disk = http_is_disk_image(b);

	if (!buffer || *size < b->size) {
		*size = (UINTN)b->size;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(buffer, b->data, (size_t)b->size);
	*size = (UINTN)b->size;
	pxe_http_free(b);
	return disk ? EFI_WARN_FILE_SYSTEM : EFI_SUCCESS;
}

/* The URL to boot: uri, else the lease's boot file (DHCP as the HTTP client). */
static EFI_STATUS http_boot_url(struct pxe_dev *d, const char *uri, bool fresh_lease,
				const char **url)
{
	const struct dhcp4_reply *l;
	EFI_STATUS status = EFI_SUCCESS;

	if (!d->bound || (!uri && fresh_lease)) {
		pxe_say(">>Start HTTP Boot over IPv4 (MAC %02x:%02x:%02x:%02x:%02x:%02x).\r\n",
			d->mac[0], d->mac[1], d->mac[2], d->mac[3], d->mac[4], d->mac[5]);
		status = pxe_dhcp(d, true);
		if (EFI_ERROR(status)) {
			pxe_say("  HTTP boot: no DHCP answer (%r)\r\n", status);
			return status;
		}
		pxe_say("  Station IP address is %u.%u.%u.%u\r\n", d->ip >> 24, d->ip >> 16 & 0xff,
			d->ip >> 8 & 0xff, d->ip & 0xff);
	}
	if (uri) {
		*url = uri;
		return EFI_SUCCESS;
	}
	l = dhcp4_client_boot(&d->dhcp);
	if (!l || !pxe_is_url(l->boot_file)) {
		log_warn("the DHCP server named no boot URL (boot file \"%s\")\n",
			 l ? l->boot_file : "");
		pxe_say("  HTTP boot: the DHCP server named no URL\r\n");
		return EFI_NOT_FOUND;
	}
	*url = l->boot_file;
	return EFI_SUCCESS;
}

EFI_STATUS pxe_http_boot(struct pxe_dev *d, const char *uri, UINTN *size, VOID *buffer)
{
	const char *url;
	EFI_STATUS status;

	if (uri && !uri[0])
		uri = NULL;
	if (buffer && d->http_cache.data && (!uri || !str8_cmp(uri, d->http_cache.url)))
		return http_deliver(d, size, buffer);
	status = pxe_link_up(d);
	if (!EFI_ERROR(status))
		status = http_boot_url(d, uri, !buffer, &url);
	if (EFI_ERROR(status))
		return status;
	pxe_say("  URI: %s\r\n", url);
	pxe_http_free(&d->http_cache);
	status = pxe_http_get(d, url, true, &d->http_cache);
	if (EFI_ERROR(status)) {
		log_warn("downloading %s: %r\n", url, status);
		pxe_say("  HTTP boot: downloading %s failed: %r\r\n", url, status);
		return status;
	}
	log_info("%s: %llu bytes of %s\n", url, (unsigned long long)d->http_cache.size,
		 d->http_cache.content_type[0] ? d->http_cache.content_type : "no stated type");
	return http_deliver(d, size, buffer);
}

EFI_STATUS pxe_uri_of_path(const EFI_DEVICE_PATH_PROTOCOL *path, char *uri, size_t cap)
{
	UINTN len;

	/* Each node's type is looked at before its length is trusted to find the next. */
	if (path->Type == MESSAGING_DEVICE_PATH && path->SubType == MSG_IPv4_DP) {
		if (dp_node_length(path) != sizeof(IPv4_DEVICE_PATH))
			return EFI_INVALID_PARAMETER;
		path = dp_next(path);
	}
	if (path->Type != MESSAGING_DEVICE_PATH || path->SubType != MSG_URI_DP ||
	    dp_node_length(path) < sizeof(URI_DEVICE_PATH) || !dp_is_end(dp_next(path)))
		return EFI_INVALID_PARAMETER;
	len = dp_node_length(path) - sizeof(URI_DEVICE_PATH);
	if (len >= cap)
		return EFI_INVALID_PARAMETER;
	mem_copy(uri, (const UINT8 *)path + sizeof(URI_DEVICE_PATH), len);
	uri[len] = 0;
	/* The URI is ASCII text: a NUL or a control character inside is not one. */
	for (UINTN i = 0; i < len; i++)
		if ((unsigned char)uri[i] < 0x20 || (unsigned char)uri[i] >= 0x7f)
			return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pxe_http_load_file(EFI_LOAD_FILE_PROTOCOL *this,
					    EFI_DEVICE_PATH_PROTOCOL *path, BOOLEAN boot_policy,
					    UINTN *size, VOID *buffer)
{
	char uri[HTTP_URL_MAX + 1] = "";
	struct pxe_dev *d;

	if (!this || !size || !mem_is_allocated(this, sizeof(*this)))
		return EFI_INVALID_PARAMETER;
	d = container_of(this, struct pxe_dev, http_load_file);
	if (d->signature != PXE_SIGNATURE)
		return EFI_INVALID_PARAMETER;
	if (path && !dp_is_end(path) && EFI_ERROR(pxe_uri_of_path(path, uri, sizeof(uri))))
		return EFI_INVALID_PARAMETER;
	if (!boot_policy)
		return EFI_UNSUPPORTED;
	return pxe_http_boot(d, uri, size, buffer);
}

#pragma pack(push, 1)
/* IPv4(0.0.0.0,TCP,DHCP)/Uri() after the NIC's path, as OVMF's HTTP boot child has. */
struct pxe_http_tail {
	IPv4_DEVICE_PATH ip;
	URI_DEVICE_PATH uri;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

EFI_STATUS pxe_http_child_create(struct pxe_dev *d, EFI_HANDLE driver)
{
	struct pxe_http_tail tail = {0};
	EFI_DEVICE_PATH_PROTOCOL *nic;
	EFI_STATUS status =
	    protocol_get(d->controller, &efi_device_path_protocol_guid, (void **)&nic);
	void *snp;

	if (EFI_ERROR(status)) {
		log_debug("the NIC has no device path: no HTTP boot child\n");
		return status;
	}
	dp_set_node(&tail.ip.Header, MESSAGING_DEVICE_PATH, MSG_IPv4_DP, sizeof(tail.ip));
	tail.ip.Protocol = IPV4_PROTO_TCP;
	dp_set_node(&tail.uri.Header, MESSAGING_DEVICE_PATH, MSG_URI_DP, sizeof(tail.uri));
	dp_set_end(&tail.end);
	d->http_path = dp_append(nic, &tail.ip.Header);
	if (!d->http_path)
		return EFI_OUT_OF_RESOURCES;
	d->http_load_file.LoadFile = pxe_http_load_file;
	d->http_child = NULL;
	status =
	    protocol_install_multiple(&d->http_child, &efi_device_path_protocol_guid, d->http_path,
				      &efi_load_file_protocol_guid, &d->http_load_file, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing the HTTP boot child: %r\n", status);
		goto err_path;
	}
	status = protocol_open(d->controller, &efi_simple_network_protocol_guid, &snp, driver,
			       d->http_child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("opening SimpleNetwork for the child: %r\n", status);
		goto err_child;
	}
	return EFI_SUCCESS;

err_child:
	protocol_uninstall_multiple(d->http_child, &efi_device_path_protocol_guid, d->http_path,
				    &efi_load_file_protocol_guid, &d->http_load_file, NULL);
err_path:
	pool_free(d->http_path);
	d->http_child = NULL;
	d->http_path = NULL;
	return status;
}

EFI_STATUS pxe_http_child_destroy(struct pxe_dev *d, EFI_HANDLE driver)
{
	EFI_STATUS status;

	if (!d->http_child)
		return EFI_SUCCESS;
	protocol_close(d->controller, &efi_simple_network_protocol_guid, driver, d->http_child);
	status =
	    protocol_uninstall_multiple(d->http_child, &efi_device_path_protocol_guid, d->http_path,
					&efi_load_file_protocol_guid, &d->http_load_file, NULL);
	if (EFI_ERROR(status)) {
		void *snp;
		log_debug("removing the HTTP boot child: %r\n", status);
		protocol_open(d->controller, &efi_simple_network_protocol_guid, &snp, driver,
			      d->http_child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	pool_free(d->http_path);
	pxe_http_free(&d->http_cache);
	d->http_child = NULL;
	d->http_path = NULL;
	return EFI_SUCCESS;
}
