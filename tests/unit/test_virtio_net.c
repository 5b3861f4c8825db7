/* The virtio-net driver (drivers/virtio/virtio_net*.c) through the UEFI driver model on a
 * fake virtio-pci function with a virtio-net backend (fake_virtio_net.c): Supported for the
 * modern and transitional IDs, the SNP on a Pci()/MAC() child, features (no offloads),
 * the device idle until Initialize, frames sent with the media header filled and the
 * virtio header zeroed (12 or 10 bytes), recycling through GetStatus, receive filters,
 * EFI_BUFFER_TOO_SMALL, WaitForPacket, used-ring lengths the device lies about, Stop and
 * ExitBootServices leaving the device reset. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fake_virtio_net.h"
#include "virtio_driver_check.h"
#include "../../drivers/virtio/virtio_spec.h"
#include <efi/protocol/device_path.h>
#include <efi/protocol/simple_network.h>
#include <ember/core/core.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define F_MAC (1ULL << 5)
#define F_STATUS (1ULL << 16)

static const UINT8 our_mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
static const UINT8 peer_mac[6] = {0x52, 0x55, 0x0a, 0x00, 0x02, 0x02};

static EFI_DRIVER_BINDING_PROTOCOL *binding(void)
{
	return fake_virtio_driver(u"Virtio Network Driver");
}

/* The SNP of the child the driver made (the only SNP in the unit tests). */
static EFI_SIMPLE_NETWORK_PROTOCOL *snp_of(EFI_HANDLE *child)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &efi_simple_network_protocol_guid, NULL,
					   &count, &handles)) ||
	    count != 1)
		return NULL;
	protocol_get(handles[0], &efi_simple_network_protocol_guid, (void **)&snp);
	if (child)
		*child = handles[0];
	pool_free(handles);
	return snp;
}

static EFI_SIMPLE_NETWORK_PROTOCOL *connect_and_init(struct fake_virtio *d)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp;

	driver_connect(d->pci->handle, NULL, NULL, false);
	snp = snp_of(NULL);
	if (!snp || EFI_ERROR(snp->Start(snp)) || EFI_ERROR(snp->Initialize(snp, 0, 0)))
		return NULL;
	return snp;
}

/* A frame from the peer to dest with an EtherType and a payload byte pattern. */
static UINT32 make_frame(UINT8 *f, const UINT8 *dest, UINT32 len)
{
	memcpy(f, dest, 6);
	memcpy(f + 6, peer_mac, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	for (UINT32 i = 14; i < len; i++)
		f[i] = (UINT8)i;
	return len;
}

static void expect_released(struct fake_virtio *d)
{
	virtio_check_disconnect(d);
	EXPECT(snp_of(NULL) == NULL);
	EXPECT(!d->queues[1].enabled);
	virtio_check_clean(d);
}

TEST(virtio_net_supported_ids)
{
	struct fake_virtio *d = fake_virtio_net_create(FAKE_VIRTIO_MODERN);
	EFI_DRIVER_BINDING_PROTOCOL *db = binding();

	ASSERT(d != NULL && db != NULL);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_SUCCESS);
	fake_virtio_set_ids(d, 0x1af4, 0x1000, 1);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_SUCCESS);
	fake_virtio_set_ids(d, 0x1af4, 0x1000, 2); /* a transitional block device */
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_UNSUPPORTED);
	fake_virtio_set_ids(d, 0x1af4, 0x1042, 0x1100);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_UNSUPPORTED);
	fake_virtio_set_ids(d, 0x8086, 0x1041, 0x1100);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_UNSUPPORTED);
	fake_virtio_set_ids(d, 0x1af4, 0x1041, 0x1100);
	driver_connect(d->pci->handle, NULL, NULL, false);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_ALREADY_STARTED);
	expect_released(d);
	fake_virtio_net_destroy(d);
}

/* The child's path ends in MAC(52540012345 6, 1); the device is reset until Initialize. */
TEST(virtio_net_child_and_mode)
{
	struct fake_virtio *d = fake_virtio_net_create(FAKE_VIRTIO_MODERN);
	EFI_DEVICE_PATH_PROTOCOL *path = NULL, *last = NULL;
	EFI_SIMPLE_NETWORK_PROTOCOL *snp;
	EFI_HANDLE child = NULL;
	CHAR16 *name;
	UINT32 irq;

	ASSERT(d != NULL);
	driver_connect(d->pci->handle, NULL, NULL, false);
	snp = snp_of(&child);
	ASSERT(snp != NULL);
	EXPECT_EQ(d->status, 0); /* idle until Initialize */
	ASSERT_STATUS(protocol_get(child, &efi_device_path_protocol_guid, (void **)&path),
		      EFI_SUCCESS);
	for (EFI_DEVICE_PATH_PROTOCOL *n = path; !dp_is_end(n); n = dp_next(n))
		last = n;
	ASSERT(last && last->Type == MESSAGING_DEVICE_PATH && last->SubType == MSG_MAC_ADDR_DP);
	EXPECT(memcmp(((MAC_ADDR_DEVICE_PATH *)last)->MacAddress.Addr, our_mac, 6) == 0);
	EXPECT_EQ(((MAC_ADDR_DEVICE_PATH *)last)->IfType, 1);
	EXPECT(memcmp(snp->Mode->CurrentAddress.Addr, our_mac, 6) == 0);
	EXPECT(memcmp(snp->Mode->PermanentAddress.Addr, our_mac, 6) == 0);
	EXPECT_EQ(snp->Mode->State, EfiSimpleNetworkStopped);
	EXPECT_EQ(snp->Mode->MaxPacketSize, 1500);
	EXPECT_EQ(snp->Mode->MediaHeaderSize, 14);
	EXPECT(snp->Mode->MediaPresentSupported && snp->Mode->MediaPresent);
	name = virtio_check_controller_name(binding(), d, child);
	EXPECT(name && str16_cmp(name, u"Virtio Network Device") == 0);
	ASSERT_STATUS(snp->Start(snp), EFI_SUCCESS);
	ASSERT_STATUS(snp->Initialize(snp, 0, 0), EFI_SUCCESS);
	EXPECT_EQ(d->accepted, VIRTIO_F_VERSION_1 | F_MAC | F_STATUS); /* no CSUM */
	EXPECT(d->status & VIRTIO_STATUS_DRIVER_OK);
	EXPECT(d->queues[0].enabled && d->queues[1].enabled);
	/* The link goes down: GetStatus says so. */
	fake_virtio_set_config(d, 6, 2, 0);
	EXPECT_STATUS(snp->GetStatus(snp, NULL, NULL), EFI_INVALID_PARAMETER); /* nothing asked */
	EXPECT_STATUS(snp->GetStatus(snp, &irq, NULL), EFI_SUCCESS);
	EXPECT(!snp->Mode->MediaPresent);
	ASSERT_STATUS(snp->Shutdown(snp), EFI_SUCCESS);
	EXPECT_EQ(d->status, 0);
	EXPECT_EQ(d->pci->live_maps, 0);
	expect_released(d);
	fake_virtio_net_destroy(d);
}

static void send_and_recycle(struct fake_virtio *d, EFI_SIMPLE_NETWORK_PROTOCOL *snp)
{
	static UINT8 frame[100];
	EFI_MAC_ADDRESS dest = {{0}};
	UINT16 protocol = 0x0806;
	UINT32 interrupts = 0;
	void *tx = NULL;

	memcpy(dest.Addr, peer_mac, 6);
	memset(frame, 0xab, sizeof(frame));
	ASSERT_STATUS(snp->Transmit(snp, 14, sizeof(frame), frame, NULL, &dest, &protocol),
		      EFI_SUCCESS);
	ASSERT_EQ(fake_virtio_net(d)->tx_count, 1);
	EXPECT_EQ(fake_virtio_net(d)->tx_len[0], sizeof(frame));
	EXPECT(memcmp(fake_virtio_net(d)->tx[0], peer_mac, 6) == 0);
	EXPECT(memcmp(fake_virtio_net(d)->tx[0] + 6, our_mac, 6) == 0);
	EXPECT(fake_virtio_net(d)->tx[0][12] == 0x08 && fake_virtio_net(d)->tx[0][13] == 0x06);
	EXPECT(fake_virtio_net(d)->tx[0][14] == 0xab);
	EXPECT_STATUS(snp->GetStatus(snp, &interrupts, &tx), EFI_SUCCESS);
	EXPECT(tx == frame);
	EXPECT(interrupts & EFI_SIMPLE_NETWORK_TRANSMIT_INTERRUPT);
	EXPECT_STATUS(snp->GetStatus(snp, &interrupts, &tx), EFI_SUCCESS);
	EXPECT(tx == NULL);
	EXPECT_EQ(interrupts, 0);
}

static void receive_filtered(struct fake_virtio *d, EFI_SIMPLE_NETWORK_PROTOCOL *snp)
{
	static const UINT8 mcast[6] = {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01};
	UINT8 frame[200], got[1600];
	EFI_MAC_ADDRESS src, dest;
	UINTN size = 10, header = 0;
	UINT16 protocol = 0;
	UINT32 interrupts = 0;

	ASSERT_STATUS(
	    snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_UNICAST, 0, FALSE, 0, NULL),
	    EFI_SUCCESS);
	/* Multicast and a stranger's unicast are dropped by the filters. */
	fake_virtio_net_deliver(d, frame, make_frame(frame, mcast, 60));
	fake_virtio_net_deliver(d, frame, make_frame(frame, peer_mac, 60));
	EXPECT_STATUS(snp->Receive(snp, NULL, &size, got, NULL, NULL, NULL), EFI_NOT_READY);
	EXPECT_STATUS(event_check(snp->WaitForPacket), EFI_NOT_READY);
	fake_virtio_net_deliver(d, frame, make_frame(frame, our_mac, 150));
	EXPECT_STATUS(event_check(snp->WaitForPacket), EFI_SUCCESS);
	EXPECT_STATUS(snp->GetStatus(snp, &interrupts, NULL), EFI_SUCCESS);
	EXPECT(interrupts & EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT);
	EXPECT_STATUS(snp->Receive(snp, &header, &size, got, &src, &dest, &protocol),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 150);
	ASSERT_STATUS(snp->Receive(snp, &header, &size, got, &src, &dest, &protocol), EFI_SUCCESS);
	EXPECT_EQ(size, 150);
	EXPECT(memcmp(got, frame, 150) == 0);
	EXPECT_EQ(header, 14);
	EXPECT_EQ(protocol, 0x0800);
	EXPECT(memcmp(src.Addr, peer_mac, 6) == 0 && memcmp(dest.Addr, our_mac, 6) == 0);
	EXPECT_STATUS(snp->Receive(snp, NULL, &size, got, NULL, NULL, NULL), EFI_NOT_READY);
	/* The multicast list lets its address through. */
	ASSERT_STATUS(snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_MULTICAST, 0, FALSE, 1,
					  (EFI_MAC_ADDRESS *)&(EFI_MAC_ADDRESS){
					      {0x01, 0x00, 0x5e, 0x00, 0x00, 0x01}}),
		      EFI_SUCCESS);
	fake_virtio_net_deliver(d, frame, make_frame(frame, mcast, 60));
	size = sizeof(got);
	EXPECT_STATUS(snp->Receive(snp, NULL, &size, got, NULL, NULL, NULL), EFI_SUCCESS);
}

static void exchange(enum fake_virtio_interface interface)
{
	struct fake_virtio *d = fake_virtio_net_create(interface);
	EFI_SIMPLE_NETWORK_PROTOCOL *snp;

	ASSERT(d != NULL);
	snp = connect_and_init(d);
	ASSERT(snp != NULL);
	send_and_recycle(d, snp);
	receive_filtered(d, snp);
	/* Many more frames than receive buffers: each buffer goes back to the device. */
	for (int i = 0; i < 300; i++) {
		UINT8 frame[64], got[64];
		UINTN size = sizeof(got);
		fake_virtio_net_deliver(d, frame, make_frame(frame, our_mac, 64));
		if (!EXPECT_STATUS(snp->Receive(snp, NULL, &size, got, NULL, NULL, NULL),
				   EFI_SUCCESS))
			break;
	}
	virtio_check_no_errors(d);
	expect_released(d);
	fake_virtio_net_destroy(d);
}

TEST(virtio_net_exchange_modern)
{
	exchange(FAKE_VIRTIO_MODERN);
}

TEST(virtio_net_exchange_transitional)
{
	exchange(FAKE_VIRTIO_TRANSITIONAL);
}

TEST(virtio_net_exchange_legacy)
{
	exchange(FAKE_VIRTIO_LEGACY);
}

/* The used ring's length is the device's word: beyond the buffer or shorter than the
 * headers, the frame is dropped, the buffer reposted, and the next frame still arrives. */
TEST(virtio_net_lying_used_lengths)
{
	struct fake_virtio *d = fake_virtio_net_create(FAKE_VIRTIO_MODERN);
	EFI_SIMPLE_NETWORK_PROTOCOL *snp;
	UINT32 lies[] = {4096, 2049, 12 + 13, 5};
	UINT8 frame[64], got[4096];
	UINTN size;

	ASSERT(d != NULL);
	snp = connect_and_init(d);
	ASSERT(snp != NULL);
	ASSERT_STATUS(
	    snp->ReceiveFilters(snp, EFI_SIMPLE_NETWORK_RECEIVE_UNICAST, 0, FALSE, 0, NULL),
	    EFI_SUCCESS);
	for (UINTN i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		fake_virtio_net(d)->used_len = lies[i];
		fake_virtio_net_deliver(d, frame, make_frame(frame, our_mac, 64));
		size = sizeof(got);
		EXPECT_STATUS(snp->Receive(snp, NULL, &size, got, NULL, NULL, NULL), EFI_NOT_READY);
	}
	fake_virtio_net_deliver(d, frame, make_frame(frame, our_mac, 64));
	size = sizeof(got);
	EXPECT_STATUS(snp->Receive(snp, NULL, &size, got, NULL, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(size, 64);
	expect_released(d);
	fake_virtio_net_destroy(d);
}

TEST(virtio_net_exit_boot_services_resets)
{
	struct fake_virtio *d = fake_virtio_net_create(FAKE_VIRTIO_MODERN);
	void *backend;

	ASSERT(d != NULL);
	ASSERT(connect_and_init(d) != NULL);
	EXPECT(d->status & VIRTIO_STATUS_DRIVER_OK);
	backend = d->backend;
	virtio_check_exit_boot_services(d);
	free(backend);
}

/* A device that refuses the features is left alone: no SNP, PciIo free again. */
TEST(virtio_net_start_failure_unwinds)
{
	struct fake_virtio *d = fake_virtio_net_create(FAKE_VIRTIO_MODERN);

	ASSERT(d != NULL);
	d->faults.refuse_features_ok = true;
	driver_connect(d->pci->handle, NULL, NULL, false);
	EXPECT(snp_of(NULL) == NULL);
	EXPECT_EQ(d->pci->attributes, EFI_PCI_IO_ATTRIBUTE_IO);
	EXPECT(fake_pci_io_unclaimed(d->pci));
	fake_virtio_net_destroy(d);
}
