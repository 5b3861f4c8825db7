/* The PXE boot driver (net/pxe): bound to a fake NIC whose network runs DHCP and TFTP
 * servers (fake_snp.c), LoadFile boots the DHCP boot file with LoadFile's size protocol,
 * with and without the server's options, through lost frames, and fails cleanly. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "fake_snp.h"
#include <ember/core/core.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/pxe_base_code.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>

static const EFI_GUID lf_guid = EFI_LOAD_FILE_PROTOCOL_GUID;

static uint8_t *pattern(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 13 + i / 1021);
	return p;
}

/* Boots over the fake network as the core's LoadFile reader does: the size, then the file.
 * Returns the status of the second call (or of the first when it is not TOO_SMALL). */
static EFI_STATUS boot(struct fake_snp *f, uint8_t **got, UINTN *size)
{
	EFI_LOAD_FILE_PROTOCOL *lf;
	EFI_STATUS status;

	*got = NULL;
	*size = 0;
	test_install_builtin_drivers();
	driver_connect(fake_snp_handle(f), NULL, NULL, false);
	if (EFI_ERROR(protocol_get(fake_snp_handle(f), &lf_guid, (void **)&lf)))
		return EFI_NOT_STARTED;
	status = lf->LoadFile(lf, NULL, true, size, NULL);
	if (status != EFI_BUFFER_TOO_SMALL)
		return status;
	*got = malloc(*size + 1);
	return lf->LoadFile(lf, NULL, true, size, *got);
}

/* Boots and checks the file; returns the address the file was read from. */
static uint32_t boots_checked(struct fake_snp_config cfg, const struct fake_snp_stats *expect_min)
{
	uint32_t tftp_ip;
	struct fake_snp *f = fake_snp_create(&cfg);
	uint8_t *got;
	UINTN size;

	ASSERT(f != NULL);
	EXPECT_STATUS(boot(f, &got, &size), EFI_SUCCESS);
	EXPECT_EQ(size, cfg.file_size);
	/* An empty file needs no second call: its size fits the empty buffer. */
	EXPECT(cfg.file_size == 0 || (got && !memcmp(got, cfg.file, cfg.file_size)));
	if (expect_min) {
		EXPECT(fake_snp_stats(f)->dropped >= expect_min->dropped);
		EXPECT_EQ(fake_snp_stats(f)->rrqs, expect_min->rrqs);
	}
	if (cfg.drop_reply_every)
		EXPECT(fake_snp_stats(f)->dropped_replies > 0); /* the loss was real */
	tftp_ip = fake_snp_stats(f)->tftp_ip;
	free(got);
	fake_snp_destroy(f);
	return tftp_ip;
}

TEST(net_pxe_boots_with_tsize_and_blksize)
{
	uint8_t *file = pattern(100000);
	struct fake_snp_config cfg = {"boot/hello.efi", file, 100000};
	struct fake_snp *f = fake_snp_create(&cfg);
	uint8_t *got;
	UINTN size;

	ASSERT(f != NULL);
	ASSERT_STATUS(boot(f, &got, &size), EFI_SUCCESS);
	EXPECT_EQ(size, 100000);
	EXPECT(!memcmp(got, file, size));
	/* The size came from tsize: the first transfer stopped at the OACK with an ERROR. */
	EXPECT_EQ(fake_snp_stats(f)->rrqs, 2);
	EXPECT_EQ(fake_snp_stats(f)->errors_from_client, 1);
	EXPECT(!strcmp(fake_snp_stats(f)->last_error, "buffer too small"));
	EXPECT_EQ(fake_snp_stats(f)->rrq_blksize, 1468);
	/* One DHCP exchange: the lease is kept for the second call. */
	EXPECT_EQ(fake_snp_stats(f)->discovers, 1);
	EXPECT_EQ(fake_snp_stats(f)->requests, 1);
	free(got);
	fake_snp_destroy(f);
	free(file);
}

TEST(net_pxe_boots_without_server_options)
{
	uint8_t *file = pattern(5000);

	/* RFC 1350 only: 512-byte blocks, the size counted by reading the file whole. */
	boots_checked((struct fake_snp_config){"a.efi", file, 5000, .no_options = true},
		      &(struct fake_snp_stats){.rrqs = 2});
	/* An OACK without tsize. */
	boots_checked((struct fake_snp_config){"a.efi", file, 5000, .no_tsize = true},
		      &(struct fake_snp_stats){.rrqs = 2});
	/* A file of whole blocks ends with an empty DATA. */
	boots_checked((struct fake_snp_config){"a.efi", file, 1024, .no_options = true}, NULL);
	boots_checked((struct fake_snp_config){"a.efi", file, 0}, NULL);
	/* The boot file named in the OFFER only. */
	boots_checked(
	    (struct fake_snp_config){"a.efi", file, 3000, .boot_file_in_offer_only = true}, NULL);
	free(file);
}

TEST(net_pxe_survives_lost_frames)
{
	uint8_t *file = pattern(6000);

	/* Every 4th frame the client sends is lost: DHCP, ARP, RRQ and ACKs are resent. */
	boots_checked((struct fake_snp_config){"lossy.efi", file, 6000, .drop_every = 4},
		      &(struct fake_snp_stats){.dropped = 3, .rrqs = 2});
	boots_checked(
	    (struct fake_snp_config){"lossy.efi", file, 6000, .drop_every = 3, .no_options = true},
	    &(struct fake_snp_stats){.dropped = 3, .rrqs = 2});
	/* Every 4th frame to the client is lost: offers, ARP replies and DATA blocks come again
	 * when the client asks again (a DATA block when its ACK of the one before repeats). */
	boots_checked((struct fake_snp_config){"lossy.efi", file, 6000, .drop_reply_every = 4},
		      NULL);
	boots_checked((struct fake_snp_config){"lossy.efi", file, 6000, .drop_reply_every = 3,
					       .no_options = true},
		      NULL);
	free(file);
}

TEST(net_pxe_missing_file_and_bad_calls)
{
	uint8_t file[10] = {0};
	struct fake_snp_config cfg = {"exists.efi", file, 10};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_LOAD_FILE_PROTOCOL *lf;
	UINTN size = 0;
	EFI_DEVICE_PATH_PROTOCOL file_node[2] = {
	    {4, 4, {8, 0}}, {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};

	ASSERT(f != NULL);
	test_install_builtin_drivers();
	driver_connect(fake_snp_handle(f), NULL, NULL, false);
	ASSERT_STATUS(protocol_get(fake_snp_handle(f), &lf_guid, (void **)&lf), EFI_SUCCESS);
	EXPECT_STATUS(lf->LoadFile(lf, NULL, false, &size, NULL), EFI_UNSUPPORTED);
	EXPECT_STATUS(lf->LoadFile(lf, NULL, true, NULL, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(lf->LoadFile(lf, file_node, true, &size, NULL), EFI_INVALID_PARAMETER);
	fake_snp_destroy(f);
	/* DHCP names the file, TFTP answers ERROR 1: EFI_NOT_FOUND, and nothing loops. */
	cfg.file_missing = true;
	f = fake_snp_create(&cfg);
	ASSERT(f != NULL);
	uint8_t *got;
	EXPECT_STATUS(boot(f, &got, &size), EFI_NOT_FOUND);
	EXPECT_EQ(fake_snp_stats(f)->rrqs, 1);
	free(got);
	fake_snp_destroy(f);
}

TEST(net_pxe_tftp_server_from_option_66)
{
	uint8_t *file = pattern(3000);

	/* 66 as an address is used; a name (no DNS) or a bad address falls back to siaddr. */
	EXPECT_EQ(boots_checked(
		      (struct fake_snp_config){"a.efi", file, 3000, .option66 = "10.0.2.9"}, NULL),
		  0x0a000209);
	EXPECT_EQ(
	    boots_checked((struct fake_snp_config){"a.efi", file, 3000, .option66 = "tftp.example"},
			  NULL),
	    0x0a000202);
	EXPECT_EQ(
	    boots_checked((struct fake_snp_config){"a.efi", file, 3000, .option66 = "10.0.2.256"},
			  NULL),
	    0x0a000202);
	EXPECT_EQ(boots_checked((struct fake_snp_config){"a.efi", file, 3000, .option66 = "10.0.2"},
				NULL),
		  0x0a000202);
	EXPECT_EQ(boots_checked(
		      (struct fake_snp_config){"a.efi", file, 3000, .option66 = "10.0.2.9."}, NULL),
		  0x0a000202);
	free(file);
}

TEST(net_pxe_boot_file_from_proxy_dhcp)
{
	uint8_t *file = pattern(3000);

	/* The DHCP server gives the address only; a proxyDHCP offer the boot file, before
	 * the ACK or after it. The proxy names no next server: its own address serves. */
	boots_checked(
	    (struct fake_snp_config){"p.efi", file, 3000, .no_boot_file = true, .proxy = true},
	    NULL);
	boots_checked((struct fake_snp_config){"p.efi", file, 3000, .no_boot_file = true,
					       .proxy = true, .proxy_late = true},
		      NULL);
	free(file);
}

TEST(net_pxe_dhcp_failures)
{
	uint8_t file[1] = {0}, *got;
	struct fake_snp_config cfg = {"a.efi", file, 1, .no_boot_file = true};
	struct fake_snp *f = fake_snp_create(&cfg);
	UINTN size;

	ASSERT(f != NULL);
	EXPECT_STATUS(boot(f, &got, &size), EFI_NOT_FOUND);
	EXPECT_EQ(fake_snp_stats(f)->rrqs, 0);
	fake_snp_destroy(f);
	/* No DHCP server: four DISCOVERs, then EFI_TIMEOUT. */
	cfg = (struct fake_snp_config){"a.efi", file, 1, .dhcp_silent = true};
	f = fake_snp_create(&cfg);
	ASSERT(f != NULL);
	EXPECT_STATUS(boot(f, &got, &size), EFI_TIMEOUT);
	EXPECT_EQ(fake_snp_stats(f)->discovers, 4);
	fake_snp_destroy(f);
}

TEST(net_pxe_refuses_a_non_ethernet_snp)
{
	uint8_t file[1] = {0};
	struct fake_snp_config cfg = {"a.efi", file, 1, .hw_address_size = 8};
	struct fake_snp *f = fake_snp_create(&cfg);
	void *lf;

	ASSERT(f != NULL);
	test_install_builtin_drivers();
	driver_connect(fake_snp_handle(f), NULL, NULL, false);
	EXPECT_STATUS(protocol_get(fake_snp_handle(f), &lf_guid, &lf), EFI_UNSUPPORTED);
	fake_snp_destroy(f);
}

static void option_97_from_smbios(void)
{
	static const EFI_GUID smbios3 = EFI_GUID_INIT(0xf2fd1544, 0x9794, 0x4a2c, 0x99, 0x2e, 0xe5,
						      0xbb, 0xcf, 0x20, 0xe3, 0x94);
	static const uint8_t want[17] = {0,    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
					 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
	static uint8_t table[64], ep[24] = "_SM3_";
	uint8_t file[1] = {0}, *got;
	struct fake_snp_config cfg = {"a.efi", file, 1};
	struct fake_snp *f;
	UINTN size;
	uint64_t at = (uint64_t)(uintptr_t)table;

	/* Type 1 (27 bytes, UUID stored as SMBIOS 2.6+ does), its empty strings, the end. */
	memcpy(table,
	       "\x01\x1b\x01\x00\x00\x00\x00\x00"
	       "\x33\x22\x11\x00\x55\x44\x77\x66\x88\x99\xaa\xbb\xcc\xdd\xee\xff",
	       24);
	memcpy(table + 29, "\x7f\x04\x00\x00\x00\x00", 6);
	ep[6] = 24;
	ep[7] = 3;
	memcpy(ep + 12, &(uint32_t){35}, 4);
	memcpy(ep + 16, &at, 8);
	ASSERT_STATUS(config_table_install(&smbios3, ep), EFI_SUCCESS);
	f = fake_snp_create(&cfg);
	ASSERT(f != NULL);
	EXPECT_STATUS(boot(f, &got, &size), EFI_SUCCESS);
	EXPECT(!memcmp(fake_snp_stats(f)->option97, want, 17));
	free(got);
	fake_snp_destroy(f);
}

TEST(net_pxe_option_97_is_the_smbios_uuid)
{
	EXPECT(RUN_ISOLATED(option_97_from_smbios));
}

static EFI_STATUS EFIAPI other_load_file(EFI_LOAD_FILE_PROTOCOL *this,
					 EFI_DEVICE_PATH_PROTOCOL *path, BOOLEAN boot_policy,
					 UINTN *size, VOID *buffer)
{
	return EFI_NOT_FOUND;
}

TEST(net_pxe_leaves_nics_that_have_a_load_file)
{
	static EFI_LOAD_FILE_PROTOCOL theirs = {other_load_file};
	uint8_t file[1] = {0};
	struct fake_snp_config cfg = {"x", file, 1};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_HANDLE h;
	EFI_LOAD_FILE_PROTOCOL *lf;

	ASSERT(f != NULL);
	h = fake_snp_handle(f);
	/* An option ROM's driver (iPXE) put its own LoadFile on its SNP handle. */
	ASSERT_STATUS(protocol_install(&h, &lf_guid, &theirs), EFI_SUCCESS);
	test_install_builtin_drivers();
	driver_connect(h, NULL, NULL, false);
	ASSERT_STATUS(protocol_get(h, &lf_guid, (void **)&lf), EFI_SUCCESS);
	EXPECT(lf == &theirs);
	EXPECT_EQ(fake_snp_protocol(f)->Mode->State, EfiSimpleNetworkStopped);
	protocol_uninstall(h, &lf_guid, &theirs);
	fake_snp_destroy(f);
}

TEST(net_pxe_base_code_after_a_boot)
{
	static const EFI_GUID pxe_guid = EFI_PXE_BASE_CODE_PROTOCOL_GUID;
	uint8_t *file = pattern(4000), *got, buf[4000], rrq[] = "\0\1a.efi\0octet";
	struct fake_snp_config cfg = {"a.efi", file, 4000};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;
	EFI_IP_ADDRESS server = {.v4 = {{10, 0, 2, 2}}}, from = {0};
	EFI_PXE_BASE_CODE_UDP_PORT tftp = 69, src = 0, dst, peer = 0;
	UINT64 size = 0;
	UINTN n, head = 4;
	uint8_t header[4];

	ASSERT(f != NULL);
	ASSERT_STATUS(boot(f, &got, &n), EFI_SUCCESS);
	free(got);
	ASSERT_STATUS(protocol_get(fake_snp_handle(f), &pxe_guid, (void **)&pxe), EFI_SUCCESS);
	/* The Mode holds the DHCP packets of the boot, as loaders (GRUB) read them. */
	EXPECT(pxe->Mode->Started && !pxe->Mode->UsingIpv6);
	ASSERT(pxe->Mode->DhcpAckReceived && pxe->Mode->DhcpDiscoverValid);
	EXPECT_EQ(pxe->Mode->DhcpAck.Dhcpv4.BootpOpcode, 2);
	EXPECT(!memcmp(pxe->Mode->DhcpAck.Dhcpv4.BootpYiAddr, "\x0a\x00\x02\x0f", 4));
	EXPECT(!memcmp(pxe->Mode->DhcpAck.Dhcpv4.BootpBootFile, "", 1));
	EXPECT_EQ(pxe->Mode->DhcpDiscover.Dhcpv4.BootpOpcode, 1);
	EXPECT(!memcmp(pxe->Mode->StationIp.v4.Addr, "\x0a\x00\x02\x0f", 4));
	EXPECT(!memcmp(pxe->Mode->SubnetMask.v4.Addr, "\xff\xff\xff\x00", 4));
	/* Mtftp: the size, then the file. */
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE, NULL, false, &size,
				 NULL, &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_SUCCESS);
	EXPECT_EQ(size, 4000);
	size = sizeof(buf);
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, &size, NULL,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_SUCCESS);
	EXPECT(size == 4000 && !memcmp(buf, file, 4000));
	size = 100;
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, &size, NULL,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 4000);
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, &size, NULL,
				 &server, (UINT8 *)"none.efi", NULL, false),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_WRITE_FILE, buf, false, &size, NULL,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_UNSUPPORTED);
	/* UdpWrite a bare RRQ from a port it picks; UdpRead the server's DATA 1 there. */
	n = sizeof(rrq);
	ASSERT_STATUS(pxe->UdpWrite(pxe, EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_PORT, &server, &tftp,
				    NULL, NULL, &src, NULL, NULL, &n, rrq),
		      EFI_SUCCESS);
	EXPECT(src >= 49152);
	dst = src;
	n = sizeof(buf);
	ASSERT_STATUS(pxe->UdpRead(pxe,
				   EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_PORT |
				       EFI_PXE_BASE_CODE_UDP_OPFLAGS_ANY_SRC_IP,
				   NULL, &dst, &from, &peer, &head, header, &n, buf),
		      EFI_SUCCESS);
	EXPECT(!memcmp(header, "\0\3\0\1", 4));
	EXPECT(n == 512 && !memcmp(buf, file, 512));
	EXPECT(peer == 40000 && !memcmp(from.v4.Addr, "\x0a\x00\x02\x02", 4));
	/* Nothing more: a timeout, not a hang. */
	n = sizeof(buf);
	EXPECT_STATUS(pxe->UdpRead(pxe, 0, NULL, &dst, NULL, NULL, NULL, NULL, &n, buf),
		      EFI_TIMEOUT);
	/* The state machine. */
	EXPECT_STATUS(pxe->Start(pxe, false), EFI_ALREADY_STARTED);
	EXPECT_STATUS(pxe->Stop(pxe), EFI_SUCCESS);
	EXPECT_STATUS(pxe->Dhcp(pxe, false), EFI_NOT_STARTED);
	EXPECT_STATUS(pxe->Start(pxe, true), EFI_UNSUPPORTED);
	EXPECT_STATUS(pxe->Start(pxe, false), EFI_SUCCESS);
	EXPECT_STATUS(pxe->Dhcp(pxe, false), EFI_SUCCESS);
	EXPECT_EQ(fake_snp_stats(f)->discovers, 2);
	EXPECT_STATUS(pxe->Discover(pxe, 0, NULL, false, NULL), EFI_UNSUPPORTED);
	/* Arguments refused before anything is sent. */
	n = sizeof(buf);
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, NULL, false, &size, NULL,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, NULL, NULL,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pxe->UdpWrite(pxe, 0, NULL, &tftp, NULL, NULL, NULL, NULL, NULL, &n, buf),
		      EFI_INVALID_PARAMETER);
	n = 2000;
	EXPECT_STATUS(pxe->UdpWrite(pxe, 0, &server, &tftp, NULL, NULL, NULL, NULL, NULL, &n, buf),
		      EFI_BAD_BUFFER_SIZE);
	EXPECT_STATUS(pxe->UdpRead(pxe, 0, NULL, NULL, NULL, NULL, NULL, NULL, &n, buf),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pxe->Start(NULL, false), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(pxe->Stop(pxe), EFI_SUCCESS);
	EXPECT_STATUS(pxe->Stop(pxe), EFI_NOT_STARTED);
	n = sizeof(buf);
	EXPECT_STATUS(pxe->UdpWrite(pxe, 0, &server, &tftp, NULL, NULL, NULL, NULL, NULL, &n, buf),
		      EFI_NOT_STARTED);
	fake_snp_destroy(f);
	free(file);
}

/* HTTP boot's side of the driver: the child MAC()/IPv4()/Uri() with its own LoadFile, a
 * DHCP boot file that is not a URL refused at once by it (and a URL refused by PXE's TFTP
 * path), and remaining paths [IPv4()]/Uri(url) checked before anything is sent. */
TEST(net_pxe_http_child_and_uri_paths)
{
	uint8_t file[10] = {0};
	struct fake_snp_config cfg = {"http://10.0.2.2/boot.efi", file, 10};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_HANDLE *handles = NULL, child = NULL;
	EFI_LOAD_FILE_PROTOCOL *lf, *child_lf;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINTN n = 0, size = 0;
	uint8_t bad[64];
	const EFI_DEVICE_PATH_PROTOCOL *last = NULL;

	ASSERT(f != NULL);
	test_install_builtin_drivers();
	driver_connect(fake_snp_handle(f), NULL, NULL, false);
	ASSERT_STATUS(protocol_get(fake_snp_handle(f), &lf_guid, (void **)&lf), EFI_SUCCESS);
	ASSERT_STATUS(handle_locate_buffer(ByProtocol, &lf_guid, NULL, &n, &handles), EFI_SUCCESS);
	for (UINTN i = 0; i < n; i++)
		if (handles[i] != fake_snp_handle(f))
			child = handles[i];
	pool_free(handles);
	ASSERT(child != NULL);
	ASSERT_STATUS(protocol_get(child, &efi_device_path_protocol_guid, (void **)&path),
		      EFI_SUCCESS);
	for (; !dp_is_end(path); path = dp_next(path))
		last = path;
	ASSERT(last && last->Type == MESSAGING_DEVICE_PATH && last->SubType == MSG_URI_DP);
	ASSERT_STATUS(protocol_get(child, &lf_guid, (void **)&child_lf), EFI_SUCCESS);
	/* PXE's option: the boot file is a URL, left to HTTP boot without a TFTP request. */
	EXPECT_STATUS(lf->LoadFile(lf, NULL, true, &size, NULL), EFI_NOT_FOUND);
	EXPECT_EQ(fake_snp_stats(f)->rrqs, 0);
	/* Hostile remaining paths: a NUL or a control character in the URI, an IPv4() node of
	 * a wrong length, a Uri() not last. */
	memset(bad, 0, sizeof(bad));
	dp_set_node((EFI_DEVICE_PATH_PROTOCOL *)bad, MESSAGING_DEVICE_PATH, MSG_URI_DP, 4 + 8);
	memcpy(bad + 4, "http:/\0x", 8);
	dp_set_end((EFI_DEVICE_PATH_PROTOCOL *)(bad + 12));
	EXPECT_STATUS(lf->LoadFile(lf, (EFI_DEVICE_PATH_PROTOCOL *)bad, true, &size, NULL),
		      EFI_INVALID_PARAMETER);
	bad[10] = '\n';
	EXPECT_STATUS(
	    child_lf->LoadFile(child_lf, (EFI_DEVICE_PATH_PROTOCOL *)bad, true, &size, NULL),
	    EFI_INVALID_PARAMETER);
	dp_set_node((EFI_DEVICE_PATH_PROTOCOL *)bad, MESSAGING_DEVICE_PATH, MSG_IPv4_DP, 8);
	EXPECT_STATUS(lf->LoadFile(lf, (EFI_DEVICE_PATH_PROTOCOL *)bad, true, &size, NULL),
		      EFI_INVALID_PARAMETER);
	dp_set_node((EFI_DEVICE_PATH_PROTOCOL *)bad, MESSAGING_DEVICE_PATH, MSG_URI_DP, 4);
	dp_set_node((EFI_DEVICE_PATH_PROTOCOL *)(bad + 4), MESSAGING_DEVICE_PATH, MSG_URI_DP, 4);
	dp_set_end((EFI_DEVICE_PATH_PROTOCOL *)(bad + 8));
	EXPECT_STATUS(lf->LoadFile(lf, (EFI_DEVICE_PATH_PROTOCOL *)bad, true, &size, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(lf->LoadFile(lf, (EFI_DEVICE_PATH_PROTOCOL *)bad, false, &size, NULL),
		      EFI_INVALID_PARAMETER);
	fake_snp_destroy(f);
}
