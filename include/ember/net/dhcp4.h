/* The DHCPv4 client's messages (RFC 2131, options of RFC 2132, PXE's of RFC 4578) and its
 * DISCOVER/OFFER/REQUEST/ACK exchange. Pure: the caller sends and receives. */
#ifndef EMBER_NET_DHCP4_H
#define EMBER_NET_DHCP4_H

#include <ember/net/net.h>

#define DHCP4_SERVER_PORT 67
#define DHCP4_CLIENT_PORT 68
/* The fixed BOOTP part and the magic cookie: options start here. */
#define DHCP4_OPTIONS_OFFSET 240
/* What a DHCP message this client sends takes at most (it pads to BOOTP's 300). */
#define DHCP4_MESSAGE_MAX 400
#define DHCP4_TEXT_MAX 256

enum dhcp4_type {
	DHCP4_DISCOVER = 1,
	DHCP4_OFFER = 2,
	DHCP4_REQUEST = 3,
	DHCP4_DECLINE = 4,
	DHCP4_ACK = 5,
	DHCP4_NAK = 6,
	DHCP4_RELEASE = 7,
	DHCP4_INFORM = 8,
};

/* What a server's reply says. Addresses are 0 and texts "" when absent. */
struct dhcp4_reply {
	uint8_t type;			  /* option 53 */
	uint32_t yiaddr, siaddr;	  /* the client's address; the next server (TFTP) */
	uint32_t server_id;		  /* 54 */
	uint32_t subnet, router, dns;	  /* 1, 3 and 6 (the first address of each list) */
	uint32_t lease;			  /* 51, seconds */
	bool pxe_class, http_class;	  /* 60 starts with "PXEClient" or "HTTPClient" */
	char tftp_server[DHCP4_TEXT_MAX]; /* 66 */
	char boot_file[DHCP4_TEXT_MAX];	  /* 67, else the file field when not overloaded */
};

/* Reads a server's reply of len bytes to transaction xid of the client at mac. Refuses
 * (returning why, NULL when accepted): a short message, a BOOTREQUEST, hardware other than
 * Ethernet, another xid or chaddr, no magic cookie, an option running past its area, a
 * known option of the wrong length (zero-length ones included), a repeated option, text
 * with control characters, an overload (52) outside the options field, an area without
 * its end option, and a message without a type. Option 52 is honoured: the file and sname
 * fields are then read as options, in that order. */
const char *dhcp4_parse(const uint8_t *p, size_t len, uint32_t xid, const uint8_t *mac,
			struct dhcp4_reply *out);

/* A message the client sends. */
struct dhcp4_request {
	uint8_t type; /* DHCP4_DISCOVER or DHCP4_REQUEST */
	uint32_t xid;
	uint16_t secs;
	uint8_t mac[NET_MAC_LEN];
	uint32_t requested_ip, server_id; /* options 50 and 54 of a REQUEST */
	const uint8_t *uuid;		  /* 16 bytes for option 97, NULL: zeros */
	bool http;			  /* HTTPClient instead of PXEClient (60, 93) */
};

/* Writes r at buf (broadcast flag set: the client has no address yet); returns its length
 * or 0 when cap is below DHCP4_MESSAGE_MAX. */
size_t dhcp4_build(uint8_t *buf, size_t cap, const struct dhcp4_request *r);

enum dhcp4_state { DHCP4_SELECTING, DHCP4_REQUESTING, DHCP4_BOUND };

enum dhcp4_event {
	DHCP4_IGNORED,	 /* not for us, malformed, or not what the state waits for */
	DHCP4_OFFERED,	 /* an offer taken: send the REQUEST now */
	DHCP4_BOUND_NOW, /* the ACK came: lease holds the result */
	DHCP4_NAKED,	 /* refused: back to DISCOVER */
	DHCP4_PROXY,	 /* a proxyDHCP offer (PXE boot information only) remembered */
};

struct dhcp4_client {
	enum dhcp4_state state;
	uint32_t xid;
	uint8_t mac[NET_MAC_LEN];
	uint8_t uuid[16];
	bool has_uuid, http;
	struct dhcp4_reply offer; /* the offer taken */
	struct dhcp4_reply lease; /* the ACK, with the offer's boot file when it lacks one */
	bool has_proxy;
	struct dhcp4_reply proxy; /* a proxyDHCP offer: no address, PXEClient, a boot file */
};

/* The boot file and its server: the lease's, else a proxyDHCP offer's (PXE 2.1, 2.2.5).
 * Returns the reply that names a boot file, or NULL. */
const struct dhcp4_reply *dhcp4_client_boot(const struct dhcp4_client *c);

/* Starts an exchange (state SELECTING); uuid may be NULL. */
void dhcp4_client_init(struct dhcp4_client *c, const uint8_t *mac, const uint8_t *uuid,
		       uint32_t xid, bool http);
/* Writes the message the state calls for (DISCOVER or REQUEST); returns its length. */
size_t dhcp4_client_message(const struct dhcp4_client *c, uint8_t *buf, size_t cap, uint16_t secs);
/* Takes in a reply; *why says why one was ignored (NULL when not refused). An OFFER
 * without an address that says PXEClient and names a boot file is a proxyDHCP offer: it is
 * remembered in any state, and never taken as the lease. */
enum dhcp4_event dhcp4_client_input(struct dhcp4_client *c, const uint8_t *p, size_t len,
				    const char **why);

#endif
