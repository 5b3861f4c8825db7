/* EFI_LOAD_FILE_PROTOCOL.LoadFile of a NIC (UEFI 2.10, 13.1 and 24.3): the PXE boot. DHCP
 * gives the address, the next server (option 66 or siaddr) and the boot file (option 67 or
 * the file field); the file is read over TFTP. The lease is kept between the call that asks
 * the size and the one that loads. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/util.h>
#include "pxe.h"

/* Option 66 as a dotted quad; a host name would need DNS, which PXE does not use here. */
static bool pxe_dotted_quad(const char *s, uint32_t *out)
{
	uint32_t ip = 0;

	for (int part = 0; part < 4; part++) {
		unsigned v = 0, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (!digits || v > 255 || (part < 3 ? *s++ != '.' : *s != 0))
			return false;
		ip = ip << 8 | v;
	}
	*out = ip;
	return true;
}

/* The TFTP server the lease names: option 66 when it is an address, else the next server. */
static uint32_t pxe_boot_server(const struct dhcp4_reply *l)
{
	uint32_t ip;

	if (l->tftp_server[0]) {
		if (pxe_dotted_quad(l->tftp_server, &ip))
			return ip;
		log_debug("TFTP server name \"%s\" is not an address: using the next server\n",
			  l->tftp_server);
	}
	/* No next server: the server that answered is the boot server too. */
	return l->siaddr ? l->siaddr : l->server_id;
}

static void pxe_say_ip(const char *what, uint32_t ip)
{
	pxe_say("  %s %u.%u.%u.%u\r\n", what, ip >> 24, ip >> 16 & 0xff, ip >> 8 & 0xff, ip & 0xff);
}

/* The DHCP half of the boot, with what it found shown. */
static EFI_STATUS pxe_boot_dhcp(struct pxe_dev *d)
{
	EFI_STATUS status;

	pxe_say(">>Start PXE over IPv4 (MAC %02x:%02x:%02x:%02x:%02x:%02x).\r\n", d->mac[0],
		d->mac[1], d->mac[2], d->mac[3], d->mac[4], d->mac[5]);
	status = pxe_dhcp(d, false);
	if (EFI_ERROR(status)) {
		pxe_say("  PXE-E51: no DHCP answer (%r)\r\n", status);
		return status;
	}
	pxe_say_ip("Station IP address is", d->ip);
	return EFI_SUCCESS;
}

static EFI_STATUS pxe_boot(struct pxe_dev *d, UINTN *size, VOID *buffer)
{
	const struct dhcp4_reply *l;
	EFI_STATUS status = pxe_link_up(d);
	UINT64 start;
	uint32_t server;

	if (!EFI_ERROR(status))
		d->mode.Started = true; /* as PXE base code's Start would have */
	if (!EFI_ERROR(status) && (!d->bound || !buffer))
		status = pxe_boot_dhcp(d);
	if (EFI_ERROR(status))
		return status;
	l = dhcp4_client_boot(&d->dhcp);
	server = l ? pxe_boot_server(l) : 0;
	if (l && pxe_is_url(l->boot_file)) {
		/* HTTP boot's option (the NIC's Uri() child) takes it; TFTP would only time out. */
		log_info("the boot file is a URL: left to HTTP boot\n");
		pxe_say("  PXE: the boot file is a URL, for HTTP boot\r\n");
		return EFI_NOT_FOUND;
	}
	if (!l || !server) {
		const char *missing = l ? "TFTP server" : "boot file";
		log_warn("the DHCP server named no %s\n", missing);
		pxe_say("  PXE: the DHCP server named no %s\r\n", missing);
		return EFI_NOT_FOUND;
	}
	if (buffer) {
		pxe_say_ip("Downloading the boot file from", server);
		pxe_say("  NBP filename is %s\r\n", l->boot_file);
	}
	start = core_time_ns();
	status = pxe_tftp_read(d, server, l->boot_file, buffer, size);
	if (status == EFI_SUCCESS && buffer) {
		UINT64 ns = core_time_ns() - start;
		pxe_say("  Downloaded %llu bytes in %llu ms (%llu KiB/s)\r\n",
			(unsigned long long)*size, (unsigned long long)(ns / 1000000),
			(unsigned long long)((UINT64)*size * 1000000000 / (ns ? ns : 1) / 1024));
	}
	if (EFI_ERROR(status) && status != EFI_BUFFER_TOO_SMALL) {
		log_warn("reading %s from %u.%u.%u.%u: %r\n", l->boot_file, server >> 24,
			 server >> 16 & 0xff, server >> 8 & 0xff, server & 0xff, status);
		pxe_say("  PXE: reading %s failed: %r\r\n", l->boot_file, status);
	}
	return status;
}

EFI_STATUS EFIAPI pxe_load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				BOOLEAN boot_policy, UINTN *size, VOID *buffer)
{
	struct pxe_dev *d;

	if (!this || !size || !mem_is_allocated(this, sizeof(*this)))
		return EFI_INVALID_PARAMETER;
	d = container_of(this, struct pxe_dev, load_file);
	if (d->signature != PXE_SIGNATURE)
		return EFI_INVALID_PARAMETER;
	/* The NIC names no files: only the boot file, with an empty remaining path, or a URL
	 * (a boot option's [IPv4()]/Uri(url)) for HTTP boot. */
	if (path && !dp_is_end(path)) {
		char uri[HTTP_URL_MAX + 1];
		if (EFI_ERROR(pxe_uri_of_path(path, uri, sizeof(uri))))
			return EFI_INVALID_PARAMETER;
		return boot_policy ? pxe_http_boot(d, uri, size, buffer) : EFI_UNSUPPORTED;
	}
	if (!boot_policy)
		return EFI_UNSUPPORTED;
	return pxe_boot(d, size, buffer);
}
