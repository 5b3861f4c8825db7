/* EMBER_NET_TOOLS_PROTOCOL: Ember's own protocol, beside EFI_PXE_BASE_CODE_PROTOCOL and
 * EFI_IP4_CONFIG2_PROTOCOL on each NIC that Ember's network stack drives, for the shell's
 * ping and http commands. The standard protocols for these (EFI_IP4_PROTOCOL with its
 * service binding for ICMP echo, EFI_HTTP_PROTOCOL with EFI_TCP4_PROTOCOL and their
 * service bindings for a GET) are asynchronous, token-driven interfaces far larger than the
 * two calls a shell needs; this gives those two calls over the same stack (net/pxe).
 *
 * Both need the interface to have an IPv4 address (EFI_IP4_CONFIG2_PROTOCOL's static
 * address or DHCP); without one they answer EFI_NO_MAPPING. */
#ifndef EMBER_NET_TOOLS_H
#define EMBER_NET_TOOLS_H

#include <efi/status.h>
#include <efi/types.h>

#define EMBER_NET_TOOLS_PROTOCOL_GUID                                                              \
	EFI_GUID_INIT(0x01dc4307, 0x6e90, 0x4c23, 0xa8, 0x03, 0xc9, 0x74, 0x0f, 0xbc, 0x75, 0x46)

#define EMBER_NET_TOOLS_REVISION 0x00010000

typedef struct _EMBER_NET_TOOLS_PROTOCOL EMBER_NET_TOOLS_PROTOCOL;

/* Sends one ICMP echo request (RFC 792) with Sequence and 32 bytes of data to Address and
 * waits up to TimeoutMs for its reply (same identifier, sequence and data). *RttUs: the
 * round trip. EFI_TIMEOUT: no reply; EFI_NO_RESPONSE: the next hop did not answer ARP. */
typedef EFI_STATUS(EFIAPI *EMBER_NET_TOOLS_PING)(EMBER_NET_TOOLS_PROTOCOL *This,
						 EFI_IPv4_ADDRESS *Address, UINT16 Sequence,
						 UINT32 TimeoutMs, UINT32 *RttUs);

/* GETs Url (http:// only, following up to 4 redirects) into a buffer allocated with
 * AllocatePool (*Body, *Size; the caller frees it with FreePool). EFI_NOT_FOUND for a 404
 * (or a host name the name server does not know, or no name server),
 * EFI_ACCESS_DENIED for 401/403, EFI_HTTP_ERROR for other answers, EFI_NO_RESPONSE for a
 * refused or unreachable server, EFI_TIMEOUT when the data stops coming,
 * EFI_INVALID_PARAMETER for a URL that is not one (https:// included). */
typedef EFI_STATUS(EFIAPI *EMBER_NET_TOOLS_HTTP_GET)(EMBER_NET_TOOLS_PROTOCOL *This,
						     CONST CHAR8 *Url, VOID **Body, UINT64 *Size);

struct _EMBER_NET_TOOLS_PROTOCOL {
	UINT32 Revision;
	EMBER_NET_TOOLS_PING Ping;
	EMBER_NET_TOOLS_HTTP_GET HttpGet;
};

#endif
