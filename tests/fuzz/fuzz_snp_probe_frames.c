/* Fuzzes snp-probe's checks of received frames (apps/snp-probe/pure/frames.c): the input is
 * one Ethernet frame, given to the ARP reply, DHCP offer and UDP payload checks. A payload
 * they accept must lie inside the frame. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../apps/snp-probe/pure/frames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const UINT8 ip[4] = {10, 0, 2, 2};
	struct frame_offer offer;
	UINT8 mac[6], *frame = malloc(size ? size : 1);
	size_t payload_size;
	const UINT8 *payload;

	memcpy(frame, data, size);
	frame_arp_reply(frame, size, ip, mac);
	frame_dhcp_offer(frame, size, size >= 4 ? (UINT32)data[0] << 24 | data[1] : 0, &offer);
	payload = frame_udp_payload(frame, size, 67, 68, &payload_size);
	if (payload && (payload < frame || payload + payload_size > frame + size))
		abort();
	free(frame);
	return 0;
}
