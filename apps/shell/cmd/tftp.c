/* tftp: reads a file from a TFTP server through the interface's
 * EFI_PXE_BASE_CODE_PROTOCOL.Mtftp (its size, then the file) into a file of the current
 * file system, like the UEFI Shell's tftp. */
#include "net.h"
#include "net_file.h"
#include "../../lib/tsc.h"
#include <efi/protocol/pxe_base_code.h>

/* Starts the PXE base code when nobody has (EFI_ALREADY_STARTED is fine) and gives it the
 * interface's address when it has none of its own (EDK2's keeps its own, apart from
 * Ip4Config2's). */
static EFI_STATUS pxe_ready(EFI_PXE_BASE_CODE_PROTOCOL *pxe, struct net_if *nif)
{
	EFI_IP_ADDRESS ip = {0}, mask = {0};
	EFI_STATUS status = pxe->Mode->Started ? EFI_SUCCESS : pxe->Start(pxe, false);

	if (EFI_ERROR(status) && status != EFI_ALREADY_STARTED)
		return status;
	if (!mem_is_zero(pxe->Mode->StationIp.v4.Addr, 4))
		return EFI_SUCCESS;
	ip.v4 = nif->info.StationAddress;
	mask.v4 = nif->info.SubnetMask;
	return pxe->SetStationIp(pxe, &ip, &mask);
}

static EFI_STATUS fetch(struct shell *sh, EFI_PXE_BASE_CODE_PROTOCOL *pxe, EFI_IP_ADDRESS *server,
			const CHAR16 *remote, UINTN blksize, const CHAR16 *local)
{
	char *name = net_ascii(remote);
	UINT64 size = 0, start;
	void *data = NULL;
	EFI_STATUS status;

	if (!name) {
		sh_error(sh, "tftp: %ls: the name must be printable ASCII\n", remote);
		return EFI_INVALID_PARAMETER;
	}
	start = app_tsc();
	status = pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE, NULL, false, &size, &blksize,
			    server, (UINT8 *)name, NULL, false);
	if (!EFI_ERROR(status) && size > (UINTN)-1)
		status = EFI_BAD_BUFFER_SIZE;
	if (!EFI_ERROR(status) && !(data = app_alloc((UINTN)size ? (UINTN)size : 1)))
		status = EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(status))
		status = pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, data, false, &size,
				    &blksize, server, (UINT8 *)name, NULL, false);
	if (EFI_ERROR(status)) {
		sh_error(sh, "tftp: %ls: %s\n", remote, net_status_text(status));
		goto out;
	}
	status = net_save(sh, "tftp", local, data, size, app_tsc() - start);
out:
	app_free(data);
	app_free(name);
	return status;
}

static EFI_STATUS cmd_tftp(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-i", SH_OPT_VALUE}, {"-s", SH_OPT_VALUE}, {NULL}};
	static EFI_GUID pxe_guid = EFI_PXE_BASE_CODE_PROTOCOL_GUID;
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;
	EFI_IP_ADDRESS server = {0};
	UINT64 blksize = 1468;
	struct net_if nif;
	struct sh_args a;
	const CHAR16 *v;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	/* Mtftp wants 512 at least (UEFI 2.10), RFC 2348 65464 at most; Ember's stack
	 * asks at most 1468 (a 1500-byte frame). */
	if ((v = sh_args_value(&a, "-s")) &&
	    (!sh_parse_u64(v, false, &blksize) || blksize < 512 || blksize > 65464)) {
		sh_error(sh, "tftp: -s needs a block size from 512 to 65464, not '%ls'\n", v);
		return EFI_INVALID_PARAMETER;
	}
	if (a.count < 2 || a.count > 3) {
		sh_error(sh, "tftp: give a host, a remote file and maybe a local name\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!net_parse_ipv4(a.pos[0], &server.v4)) {
		sh_error(sh, "tftp: '%ls' is not an IPv4 address\n", a.pos[0]);
		return EFI_INVALID_PARAMETER;
	}
	status = net_if_find(sh, "tftp", sh_args_value(&a, "-i"), &nif);
	if (!EFI_ERROR(status))
		status = net_if_protocol(sh, "tftp", &nif, &pxe_guid, "EFI_PXE_BASE_CODE_PROTOCOL",
					 (void **)&pxe);
	if (!EFI_ERROR(status))
		status = net_if_need_address(sh, "tftp", &nif);
	if (!EFI_ERROR(status) && EFI_ERROR(status = pxe_ready(pxe, &nif)))
		sh_error(sh, "tftp: %ls: cannot start: %r\n", nif.info.Name, status);
	if (EFI_ERROR(status))
		return status;
	return fetch(sh, pxe, &server, a.pos[1], (UINTN)blksize,
		     a.count == 3 ? a.pos[2] : net_local_name(a.pos[1], a.pos[1]));
}

SH_COMMAND(tftp, "tftp", "Downloads a file from a TFTP server",
	   "tftp [-i name] [-s blksize] host remote [local]\n"
	   "  Reads the file remote from the TFTP server at host (an IPv4 address) and writes\n"
	   "  it as local (by default the last part of remote) in the current directory.\n"
	   "  -i    the interface (eth0 ...; the first by default)\n"
	   "  -s    the block size to ask for (512-65464; at most 1468 is asked)\n",
	   cmd_tftp);
