/* Fuzzes the DHCPv4 reply parser and client (net/dhcp4_*.c): the input is a server's
 * reply, whose own xid and chaddr are taken as the client's so the option walk is reached.
 * Whatever it holds, the texts stay terminated inside their arrays and free of control
 * characters, and the client's REQUEST still builds. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/net/dhcp4.h>

static void check_text(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	if (n == cap)
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zero[6];
	const uint8_t *mac = size >= 34 ? data + 28 : zero;
	uint32_t xid = size >= 8 ? net_get32(data + 4) : 0;
	struct dhcp4_client c;
	struct dhcp4_reply r;
	uint8_t out[DHCP4_MESSAGE_MAX];
	const char *why;

	if (!dhcp4_parse(data, size, xid, mac, &r)) {
		check_text(r.boot_file, sizeof(r.boot_file));
		check_text(r.tftp_server, sizeof(r.tftp_server));
	}
	dhcp4_client_init(&c, mac, NULL, xid, size & 1);
	if (dhcp4_client_input(&c, data, size, &why) == DHCP4_OFFERED &&
	    (dhcp4_client_message(&c, out, sizeof(out), 0) == 0 || c.state != DHCP4_REQUESTING))
		abort();
	/* The same reply as an ACK to the offer it made. */
	if (c.state == DHCP4_REQUESTING)
		dhcp4_client_input(&c, data, size, &why);
	/* Whatever is booted names a file: the lease's or a proxy's. */
	const struct dhcp4_reply *boot = dhcp4_client_boot(&c);
	if (boot && (!boot->boot_file[0] || (boot == &c.proxy && boot->yiaddr)))
		abort();
	return 0;
}
