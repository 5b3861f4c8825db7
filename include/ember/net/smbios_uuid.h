/* The client machine identifier of PXE (DHCP option 97, RFC 4578): the system UUID of
 * SMBIOS's System Information structure (type 1). */
#ifndef EMBER_NET_SMBIOS_UUID_H
#define EMBER_NET_SMBIOS_UUID_H

#include <ember/net/net.h>

/* Walks the SMBIOS structure table of len bytes for the type 1 structure and writes its
 * UUID to uuid in RFC 4122's (network) byte order; from SMBIOS 2.6 on (version_2_6) the
 * first three fields are stored little-endian and are turned around. Returns false when the
 * table has no type 1 structure long enough, a structure runs past the table, or the UUID
 * is all zeros or all ones (SMBIOS: not present, or not set). */
bool smbios_system_uuid(const uint8_t *table, size_t len, bool version_2_6, uint8_t *uuid);

#endif
