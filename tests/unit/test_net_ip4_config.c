/* EFI_IP4_CONFIG2_PROTOCOL of the PXE driver (net/pxe/pxe_ip4_config.c) over the fake NIC:
 * the interface's information, DHCP and static policies, the refusals of bad addresses, and
 * the PXE base code's SetStationIp and Mtftp BlockSize that the shell's tftp uses. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "fake_snp.h"
#include <ember/core/core.h>
#include <efi/protocol/ip4_config2.h>
#include <efi/protocol/pxe_base_code.h>
#include <ember/lib/guids.h>
#include <ember/net/net_tools.h>

static EFI_IP4_CONFIG2_PROTOCOL *config_of(struct fake_snp *f)
{
	EFI_IP4_CONFIG2_PROTOCOL *c = NULL;

	test_install_builtin_drivers();
	driver_connect(fake_snp_handle(f), NULL, NULL, false);
	protocol_get(fake_snp_handle(f), &efi_ip4_config2_protocol_guid, (void **)&c);
	return c;
}

/* The interface's information (its route table left out). */
static EFI_IP4_CONFIG2_INTERFACE_INFO info_of(EFI_IP4_CONFIG2_PROTOCOL *c)
{
	EFI_IP4_CONFIG2_INTERFACE_INFO info[4];
	UINTN size = sizeof(info);

	memset(info, 0xaa, sizeof(info));
	if (EFI_ERROR(c->GetData(c, Ip4Config2DataTypeInterfaceInfo, &size, info)))
		memset(info, 0, sizeof(info));
	return info[0];
}

static EFI_STATUS set_policy(EFI_IP4_CONFIG2_PROTOCOL *c, EFI_IP4_CONFIG2_POLICY p)
{
	return c->SetData(c, Ip4Config2DataTypePolicy, sizeof(p), &p);
}

static EFI_STATUS set_manual(EFI_IP4_CONFIG2_PROTOCOL *c, const char *ip, const char *mask)
{
	EFI_IP4_CONFIG2_MANUAL_ADDRESS m;

	memcpy(m.Address.Addr, ip, 4);
	memcpy(m.SubnetMask.Addr, mask, 4);
	return c->SetData(c, Ip4Config2DataTypeManualAddress, sizeof(m), &m);
}

TEST(net_ip4_config_dhcp_policy_and_info)
{
	uint8_t file[1] = {0};
	struct fake_snp_config cfg = {"a.efi", file, 1};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_IP4_CONFIG2_PROTOCOL *c;
	EFI_IP4_CONFIG2_INTERFACE_INFO info;
	EFI_IP4_CONFIG2_POLICY policy = Ip4Config2PolicyMax;
	EFI_IPv4_ADDRESS gw;
	UINTN size = 0;

	ASSERT(f != NULL);
	ASSERT((c = config_of(f)) != NULL);
	/* The size protocol, then the interface as it starts: DHCP, no address. */
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeInterfaceInfo, &size, NULL),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof(info));
	info = info_of(c);
	EXPECT(info.Name[0] == 'e' && info.Name[1] == 't' && info.Name[2] == 'h');
	EXPECT_EQ(info.HwAddressSize, 6);
	EXPECT(!memcmp(info.HwAddress.Addr, fake_snp_protocol(f)->Mode->CurrentAddress.Addr, 6));
	EXPECT(!memcmp(info.StationAddress.Addr, "\0\0\0\0", 4));
	size = sizeof(policy);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypePolicy, &size, &policy), EFI_SUCCESS);
	EXPECT_EQ(policy, Ip4Config2PolicyDhcp);
	/* Addresses are the static policy's only. */
	EXPECT_STATUS(set_manual(c, "\x0a\x00\x02\x14", "\xff\xff\xff\x00"), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypeInterfaceInfo, sizeof(info), &info),
		      EFI_WRITE_PROTECTED);
	/* Setting DHCP asks at once; the lease is the interface's address. */
	EXPECT_STATUS(set_policy(c, Ip4Config2PolicyDhcp), EFI_SUCCESS);
	EXPECT_EQ(fake_snp_stats(f)->requests, 1);
	info = info_of(c);
	EXPECT(!memcmp(info.StationAddress.Addr, "\x0a\x00\x02\x0f", 4));
	EXPECT(!memcmp(info.SubnetMask.Addr, "\xff\xff\xff\x00", 4));
	size = sizeof(gw);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeGateway, &size, &gw), EFI_SUCCESS);
	EXPECT(!memcmp(gw.Addr, "\x0a\x00\x02\x02", 4));
	/* The route table follows the structure: the subnet, then the default route. */
	size = 0;
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeInterfaceInfo, &size, NULL),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, sizeof(info) + 2 * sizeof(EFI_IP4_ROUTE_TABLE));
	{
		uint8_t buf[sizeof(info) + 2 * sizeof(EFI_IP4_ROUTE_TABLE)];
		EFI_IP4_CONFIG2_INTERFACE_INFO *full = (EFI_IP4_CONFIG2_INTERFACE_INFO *)buf;

		ASSERT_STATUS(c->GetData(c, Ip4Config2DataTypeInterfaceInfo, &size, buf),
			      EFI_SUCCESS);
		ASSERT_EQ(full->RouteTableSize, 2);
		ASSERT(full->RouteTable == (EFI_IP4_ROUTE_TABLE *)(full + 1));
		EXPECT(!memcmp(full->RouteTable[0].SubnetAddress.Addr, "\x0a\x00\x02\x00", 4));
		EXPECT(!memcmp(full->RouteTable[0].SubnetMask.Addr, "\xff\xff\xff\x00", 4));
		EXPECT(!memcmp(full->RouteTable[1].SubnetMask.Addr, "\0\0\0\0", 4));
		EXPECT(!memcmp(full->RouteTable[1].GatewayAddress.Addr, "\x0a\x00\x02\x02", 4));
	}
	size = sizeof(gw);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeDnsServer, &size, &gw), EFI_NOT_FOUND);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeManualAddress, &size, &gw), EFI_NOT_FOUND);
	/* Notifications are not offered; bad calls are refused. */
	EXPECT_STATUS(c->RegisterDataNotify(c, Ip4Config2DataTypePolicy, (EFI_EVENT)1),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeMaximum, &size, &gw), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypePolicy, 1, &policy), EFI_BAD_BUFFER_SIZE);
	policy = Ip4Config2PolicyMax;
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypePolicy, sizeof(policy), &policy),
		      EFI_INVALID_PARAMETER);
	fake_snp_destroy(f);
}

TEST(net_ip4_config_dhcp_without_a_server)
{
	uint8_t file[1] = {0};
	struct fake_snp_config cfg = {"a.efi", file, 1, .dhcp_silent = true};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_IP4_CONFIG2_PROTOCOL *c;

	ASSERT(f != NULL);
	ASSERT((c = config_of(f)) != NULL);
	/* As with an asynchronous DHCP, the outcome is the address: none. */
	EXPECT_STATUS(set_policy(c, Ip4Config2PolicyDhcp), EFI_SUCCESS);
	EXPECT_EQ(fake_snp_stats(f)->discovers, 4);
	EXPECT(!memcmp(info_of(c).StationAddress.Addr, "\0\0\0\0", 4));
	fake_snp_destroy(f);
}

TEST(net_ip4_config_static_addresses)
{
	uint8_t file[1] = {0};
	struct fake_snp_config cfg = {"a.efi", file, 1};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_IP4_CONFIG2_PROTOCOL *c;
	EFI_IP4_CONFIG2_MANUAL_ADDRESS m;
	EFI_IPv4_ADDRESS gw;
	UINTN size;

	ASSERT(f != NULL);
	ASSERT((c = config_of(f)) != NULL);
	ASSERT_STATUS(set_policy(c, Ip4Config2PolicyDhcp), EFI_SUCCESS);
	/* Static forgets the lease; the address is then what is set. */
	EXPECT_STATUS(set_policy(c, Ip4Config2PolicyStatic), EFI_SUCCESS);
	EXPECT(!memcmp(info_of(c).StationAddress.Addr, "\0\0\0\0", 4));
	EXPECT_STATUS(set_manual(c, "\x0a\x00\x02\x00", "\xff\xff\xff\x00"),
		      EFI_INVALID_PARAMETER); /* the subnet itself */
	EXPECT_STATUS(set_manual(c, "\x0a\x00\x02\xff", "\xff\xff\xff\x00"),
		      EFI_INVALID_PARAMETER); /* its broadcast */
	EXPECT_STATUS(set_manual(c, "\xe0\x00\x00\x01", "\xff\xff\xff\x00"),
		      EFI_INVALID_PARAMETER); /* multicast */
	EXPECT_STATUS(set_manual(c, "\x0a\x00\x02\x14", "\xff\x00\xff\x00"),
		      EFI_INVALID_PARAMETER); /* a mask with a hole */
	EXPECT_STATUS(set_manual(c, "\x0a\x00\x02\x14", "\0\0\0\0"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypeManualAddress, 3, &m), EFI_BAD_BUFFER_SIZE);
	EXPECT(!memcmp(info_of(c).StationAddress.Addr, "\0\0\0\0", 4));
	EXPECT_STATUS(set_manual(c, "\x0a\x00\x02\x14", "\xff\xff\xff\x00"), EFI_SUCCESS);
	size = sizeof(m);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeManualAddress, &size, &m), EFI_SUCCESS);
	EXPECT(!memcmp(m.Address.Addr, "\x0a\x00\x02\x14", 4));
	EXPECT(!memcmp(info_of(c).StationAddress.Addr, "\x0a\x00\x02\x14", 4));
	/* Static again keeps it. */
	EXPECT_STATUS(set_policy(c, Ip4Config2PolicyStatic), EFI_SUCCESS);
	EXPECT(!memcmp(info_of(c).StationAddress.Addr, "\x0a\x00\x02\x14", 4));
	/* A gateway off the subnet is refused; one on it is the default route. */
	memcpy(gw.Addr, "\x0a\x09\x02\x02", 4);
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypeGateway, sizeof(gw), &gw),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypeGateway, 3, &gw), EFI_BAD_BUFFER_SIZE);
	memcpy(gw.Addr, "\x0a\x00\x02\x02", 4);
	EXPECT_STATUS(c->SetData(c, Ip4Config2DataTypeGateway, sizeof(gw), &gw), EFI_SUCCESS);
	memset(gw.Addr, 0, 4);
	size = sizeof(gw);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypeGateway, &size, &gw), EFI_SUCCESS);
	EXPECT(!memcmp(gw.Addr, "\x0a\x00\x02\x02", 4));
	/* No DHCP went out for any of it. */
	EXPECT_EQ(fake_snp_stats(f)->requests, 1);
	fake_snp_destroy(f);
}

TEST(net_ip4_config_pxe_station_ip_and_block_size)
{
	static const EFI_GUID pxe_guid = EFI_PXE_BASE_CODE_PROTOCOL_GUID;
	uint8_t file[3000], buf[3000];
	struct fake_snp_config cfg = {"a.efi", file, sizeof(file)};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;
	EFI_IP4_CONFIG2_PROTOCOL *c;
	EFI_IP_ADDRESS server = {.v4 = {{10, 0, 2, 2}}}, ip = {.v4 = {{10, 0, 2, 15}}},
		       mask = {.v4 = {{255, 255, 255, 0}}};
	EFI_IP4_CONFIG2_POLICY policy;
	UINTN blksize = 512, size_p = sizeof(policy);
	UINT64 size = sizeof(buf);

	for (size_t i = 0; i < sizeof(file); i++)
		file[i] = (uint8_t)(i * 7);
	ASSERT(f != NULL);
	ASSERT((c = config_of(f)) != NULL);
	ASSERT_STATUS(protocol_get(fake_snp_handle(f), &pxe_guid, (void **)&pxe), EFI_SUCCESS);
	ASSERT_STATUS(pxe->Start(pxe, false), EFI_SUCCESS);
	/* SetStationIp is a static configuration, seen through Ip4Config2 (the fake network
	 * sends to 10.0.2.15). */
	EXPECT_STATUS(pxe->SetStationIp(pxe, &ip, &mask), EFI_SUCCESS);
	EXPECT(!memcmp(pxe->Mode->StationIp.v4.Addr, ip.v4.Addr, 4));
	EXPECT(!memcmp(info_of(c).StationAddress.Addr, ip.v4.Addr, 4));
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypePolicy, &size_p, &policy), EFI_SUCCESS);
	EXPECT_EQ(policy, Ip4Config2PolicyStatic);
	/* Mtftp asks the block size it is given, from the static address. */
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, &size, &blksize,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_SUCCESS);
	EXPECT_EQ(size, sizeof(file));
	EXPECT(!memcmp(buf, file, sizeof(file)));
	EXPECT_EQ(fake_snp_stats(f)->rrq_blksize, 512);
	blksize = 511; /* Mtftp's BlockSize is 512 at least */
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, &size, &blksize,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_INVALID_PARAMETER);
	blksize = 9000; /* more than a frame holds: the largest that fits is asked */
	size = sizeof(buf);
	EXPECT_STATUS(pxe->Mtftp(pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, false, &size, &blksize,
				 &server, (UINT8 *)"a.efi", NULL, false),
		      EFI_SUCCESS);
	EXPECT_EQ(fake_snp_stats(f)->rrq_blksize, 1468);
	/* A program's Dhcp() binds the interface: its policy is DHCP's again. */
	EXPECT_STATUS(pxe->Dhcp(pxe, false), EFI_SUCCESS);
	size_p = sizeof(policy);
	EXPECT_STATUS(c->GetData(c, Ip4Config2DataTypePolicy, &size_p, &policy), EFI_SUCCESS);
	EXPECT_EQ(policy, Ip4Config2PolicyDhcp);
	fake_snp_destroy(f);
}

TEST(net_ip4_config_ping_both_ways)
{
	uint8_t file[1] = {0};
	struct fake_snp_config cfg = {"a.efi", file, 1, .ping_client = true};
	struct fake_snp *f = fake_snp_create(&cfg);
	EFI_IP4_CONFIG2_PROTOCOL *c;
	EMBER_NET_TOOLS_PROTOCOL *tools;
	EFI_IPv4_ADDRESS server = {{10, 0, 2, 2}}, nobody = {{10, 0, 3, 9}};
	UINT32 rtt = 0;

	ASSERT(f != NULL);
	ASSERT((c = config_of(f)) != NULL);
	ASSERT_STATUS(
	    protocol_get(fake_snp_handle(f), &ember_net_tools_protocol_guid, (void **)&tools),
	    EFI_SUCCESS);
	/* No address yet: nothing is sent. */
	EXPECT_STATUS(tools->Ping(tools, &server, 1, 100, &rtt), EFI_NO_MAPPING);
	EXPECT_EQ(fake_snp_stats(f)->echo_requests, 0);
	ASSERT_STATUS(set_policy(c, Ip4Config2PolicyDhcp), EFI_SUCCESS);
	/* The server's echo request (queued after its ACK) is answered while our ping waits
	 * for the reply to its own. */
	EXPECT_STATUS(tools->Ping(tools, &server, 1, 1000, &rtt), EFI_SUCCESS);
	EXPECT_EQ(fake_snp_stats(f)->echo_requests, 1);
	EXPECT_EQ(fake_snp_stats(f)->echo_replies, 1);
	EXPECT_STATUS(tools->Ping(tools, &server, 2, 1000, &rtt), EFI_SUCCESS);
	EXPECT_EQ(fake_snp_stats(f)->echo_requests, 2);
	/* Off the subnet the router (10.0.2.2, which answers for itself only) gets it: no
	 * reply comes. */
	EXPECT_STATUS(tools->Ping(tools, &nobody, 3, 200, &rtt), EFI_TIMEOUT);
	EXPECT_STATUS(tools->Ping(tools, &server, 4, 0, &rtt), EFI_INVALID_PARAMETER);
	fake_snp_destroy(f);
}
