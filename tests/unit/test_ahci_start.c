/* The AHCI driver's Supported, Start and Stop on the fake HBA (fake_ahci.h): the class
 * codes and remaining paths it takes, Start failing at each PciIo call and unwinding to
 * nothing, ports that cannot start (no link, never ready, engines that do not stop, devices
 * that fail IDENTIFY or are not disks), children that cannot be created or are in use, two
 * HBAs at once, one child stopped alone and created again, children asked for one port at
 * a time, ExitBootServices, and the controller's names. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_ahci.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <efi/protocol/component_name2.h>

#define MIB (1024 * 1024ULL)
#define CAP_S64A (1u << 31)
#define CMD_ST 0x1u
#define CMD_FRE 0x10u
#define GHC_IE 0x2u

static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static const EFI_GUID name2_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;

static UINT8 *image;

static struct fake_ahci_disk a_disk(void)
{
	if (!image)
		image = ahci_test_image(MIB, 0); /* shared, never written */
	return (struct fake_ahci_disk){.data = image, .sectors = MIB / 512};
}

/* At Pci(dev,0x2): a disk on port 0 and a CD-ROM drive without a medium on port 1. */
static struct fake_ahci *two_devices_at(UINT8 dev)
{
	struct fake_ahci *a = ahci_test_hba(dev, 0x3);
	struct fake_ahci_disk disk = a_disk();
	struct fake_ahci_cd cd = {0};

	fake_ahci_attach_disk(a, 0, &disk);
	fake_ahci_attach_cd(a, 1, &cd);
	return a;
}

static struct fake_ahci *two_devices(void)
{
	return two_devices_at(0x1f);
}

static UINTN children(struct fake_ahci *a)
{
	UINTN n = 0;

	for (UINT8 i = 0; i < FAKE_AHCI_PORTS; i++)
		n += ahci_test_child(a, i) != NULL;
	return n;
}

/* The disk on port 0 reads what its image holds. */
static void expect_disk_reads(struct fake_ahci *a)
{
	EFI_BLOCK_IO_PROTOCOL *bio = ahci_test_block_io(a, 0);
	UINT8 *buf = malloc(1024);

	if (EXPECT(bio != NULL)) {
		EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 5, 1024, buf), EFI_SUCCESS);
		EXPECT(ahci_test_image_at(buf, 1024, 5 * 512, 0));
	}
	free(buf);
}

static void set_class(struct fake_ahci *a, UINT32 class_code)
{
	a->pci->config[PCI_PROG_IF_OFFSET] = (UINT8)class_code;
	a->pci->config[PCI_SUB_CLASS_OFFSET] = (UINT8)(class_code >> 8);
	a->pci->config[PCI_BASE_CLASS_OFFSET] = (UINT8)(class_code >> 16);
}

TEST(ahci_supported_takes_only_ahci_class_codes)
{
	/* SATA vendor-specific and serial storage bus, SAS, NVMe, VGA (IDE is the IDE
	 * driver's: test_ide.c). */
	static const UINT32 others[] = {0x010600, 0x010602, 0x010700, 0x010802, 0x030000};

	for (UINTN i = 0; i < ARRAY_SIZE(others); i++) {
		struct fake_ahci *a = two_devices();

		set_class(a, others[i]);
		EXPECT(EFI_ERROR(ahci_test_connect(a)));
		EXPECT(fake_pci_io_unclaimed(a->pci));
		EXPECT_EQ(a->pci->attributes, AHCI_TEST_ATTRIBUTES);
		EXPECT_EQ(a->resets, 0);
		ahci_test_expect_no_errors(a);
		fake_ahci_destroy(a);
	}
}

static EFI_STATUS connect_with(struct fake_ahci *a, const EFI_DEVICE_PATH_PROTOCOL *node)
{
	EFI_DEVICE_PATH_PROTOCOL *remaining = dp_append_node(NULL, node);
	EFI_STATUS status = driver_connect(a->pci->handle, NULL, remaining, false);

	pool_free(remaining);
	return status;
}

TEST(ahci_remaining_path_names_a_sata_device_or_nothing)
{
	SATA_DEVICE_PATH sata = {
	    {MESSAGING_DEVICE_PATH, MSG_SATA_DP, {sizeof(SATA_DEVICE_PATH), 0}}, 1, 0xffff, 0};
	UINT8 long_sata[sizeof(SATA_DEVICE_PATH) + 2] = {0};
	PCI_DEVICE_PATH pci = {{HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(PCI_DEVICE_PATH), 0}}};
	EFI_DEVICE_PATH_PROTOCOL end = {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4}};
	struct fake_ahci *a = two_devices();

	EXPECT_STATUS(connect_with(a, &sata.Header), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 1) != NULL);
	EXPECT(ahci_test_child(a, 0) == NULL); /* only the child named (UEFI 2.10, 11.1) */
	ahci_test_expect_released(a);
	/* An End node asks for the controller alone. */
	EXPECT_STATUS(driver_connect(a->pci->handle, NULL, &end, false), EFI_SUCCESS);
	EXPECT(!fake_pci_io_unclaimed(a->pci));
	EXPECT_EQ(children(a), 0);
	EXPECT_EQ(a->pci->live_buffers, 0);
	ahci_test_expect_released(a);
	/* Nodes that are not SATA devices are not this driver's. */
	EXPECT(EFI_ERROR(connect_with(a, &pci.Header)));
	EXPECT(fake_pci_io_unclaimed(a->pci));
	memcpy(long_sata, &sata, sizeof(sata));
	long_sata[2] = sizeof(long_sata);
	EXPECT(EFI_ERROR(connect_with(a, (EFI_DEVICE_PATH_PROTOCOL *)long_sata)));
	EXPECT(fake_pci_io_unclaimed(a->pci));
	/* Devices this driver never makes: behind a port multiplier, a LUN, port 32. */
	sata.PortMultiplierPortNumber = 0;
	EXPECT(EFI_ERROR(connect_with(a, &sata.Header)));
	sata.PortMultiplierPortNumber = 0xffff;
	sata.Lun = 1;
	EXPECT(EFI_ERROR(connect_with(a, &sata.Header)));
	sata.Lun = 0;
	sata.HBAPortNumber = 32;
	EXPECT(EFI_ERROR(connect_with(a, &sata.Header)));
	EXPECT(fake_pci_io_unclaimed(a->pci));
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* Start with the Nth Attributes call failing, for every N Start makes: Start fails and
 * leaves the function as it found it. (N = 1, the first Get, has its own test below.) */
TEST(ahci_start_unwinds_when_attributes_fail)
{
	struct fake_ahci *a = two_devices();
	UINTN calls;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	calls = a->pci->attributes_calls;
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	ASSERT(calls >= 3);
	for (UINTN n = 2; n <= calls; n++) {
		a = two_devices();
		a->pci->faults.attributes_fail_at = n;
		EXPECT(EFI_ERROR(ahci_test_connect(a)));
		EXPECT_EQ(children(a), 0);
		ahci_test_expect_released(a);
		fake_ahci_destroy(a);
	}
}

/* Attributes(Get) fails: Start knows nothing of the attributes to restore, so it must not
 * "restore" any. The driver used to Set the attributes it never read (zero), which turned
 * off the I/O decoding the function had before Start. */
TEST(ahci_start_failing_attribute_get_changes_no_attribute)
{
	struct fake_ahci *a = two_devices();

	a->pci->faults.attributes_fail_at = 1;
	EXPECT(EFI_ERROR(ahci_test_connect(a)));
	EXPECT_EQ(a->pci->attributes, AHCI_TEST_ATTRIBUTES);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* The Nth AllocateBuffer or Map failing costs that port its device, nothing more. */
TEST(ahci_port_without_memory_has_no_child)
{
	for (UINTN n = 1; n <= 4; n++) {
		struct fake_ahci *a = two_devices();

		if (n <= 2)
			a->pci->faults.alloc_fail_at = n;
		else
			a->pci->faults.map_fail_at = n - 2;
		EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
		EXPECT_EQ(children(a), 1);
		ahci_test_expect_released(a);
		fake_ahci_destroy(a);
	}
}

/* Port memory the HBA cannot address: mapped only in part, or (without S64A) above 4 GiB. */
TEST(ahci_port_memory_out_of_reach_is_refused)
{
	struct fake_ahci *a = two_devices();

	a->pci->faults.common_map_limit = 2048;
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 0);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);

	a = two_devices();
	a->cap &= ~CAP_S64A;
	a->pci->faults.dma_offset = 1ULL << 32;
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 0);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

TEST(ahci_hba_reset_that_never_ends_fails_start)
{
	struct fake_ahci *a = two_devices();

	a->reset_ns = FAKE_AHCI_NEVER;
	EXPECT(EFI_ERROR(ahci_test_connect(a)));
	EXPECT(a->ghc & 1); /* HR still set */
	EXPECT_EQ(children(a), 0);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* Each port its own trouble; only the healthy disk on port 9 becomes a child. */
TEST(ahci_ports_that_cannot_start_are_skipped)
{
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x3ff);
	struct fake_ahci_disk disk = a_disk();
	struct fake_ahci_port *p = a->ports;

	p[0].link_ns = FAKE_AHCI_NEVER;	 /* present, but no link (DET 1) */
	p[1].ready_ns = FAKE_AHCI_NEVER; /* link, but BSY forever */
	p[2].engine_stuck = true;	 /* CR never clears */
	p[3].fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_ERROR, 0xec}; /* IDENTIFY fails */
	for (UINT8 i = 0; i < 7; i++)
		fake_ahci_attach_disk(a, i, &disk);
	p[4].identify[0] |= 0x8000; /* not an ATA device */
	p[5].identify[49] = 0;	    /* no LBA */
	p[6].identify[60] = p[6].identify[61] = 0;
	memset(&p[6].identify[100], 0, 8);	  /* no sectors */
	fake_ahci_attach_other(a, 7, 0x96690101); /* a port multiplier */
	/* port 8: nothing */
	fake_ahci_attach_disk(a, 9, &disk);
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 1);
	EXPECT(ahci_test_child(a, 9) != NULL);
	EXPECT_EQ(a->pci->live_buffers, 1);
	EXPECT_EQ(p[7].commands, 0);
	p[2].engine_stuck = false; /* so that the release check can see the port idle */
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* Another handle already has the path the child would get: that child cannot be made. */
TEST(ahci_child_whose_path_is_taken_is_not_created)
{
	struct fake_ahci *a = two_devices();
	SATA_DEVICE_PATH sata = {
	    {MESSAGING_DEVICE_PATH, MSG_SATA_DP, {sizeof(SATA_DEVICE_PATH), 0}}, 0, 0xffff, 0};
	EFI_DEVICE_PATH_PROTOCOL *path = dp_append_node(&a->pci->path.root.Header, &sata.Header);
	EFI_HANDLE squatter = NULL;

	ASSERT_STATUS(protocol_install(&squatter, &path_guid, path), EFI_SUCCESS);
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 1); /* the CD-ROM drive's */
	EXPECT_EQ(a->pci->live_buffers, 1);
	ahci_test_expect_released(a);
	protocol_uninstall(squatter, &path_guid, path);
	pool_free(path);
	fake_ahci_destroy(a);
}

/* Someone holds a child's BlockIo and will not let go: Stop fails and nothing is lost; once
 * let go, Stop succeeds. */
TEST(ahci_child_in_use_keeps_the_controller)
{
	struct fake_ahci *a = two_devices();
	EFI_HANDLE agent = NULL, child;
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buf = malloc(512);
	static int token;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	child = ahci_test_child(a, 0);
	ASSERT(child != NULL);
	ASSERT_STATUS(protocol_install(&agent, &name2_guid, &token), EFI_SUCCESS);
	ASSERT_STATUS(protocol_open(child, &bio_guid, (void **)&bio, agent, child,
				    EFI_OPEN_PROTOCOL_BY_DRIVER),
		      EFI_SUCCESS);
	EXPECT(EFI_ERROR(driver_disconnect(a->pci->handle, NULL, NULL)));
	EXPECT(ahci_test_child(a, 0) == child);
	EXPECT(!fake_pci_io_unclaimed(a->pci));
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 512, 0, 0));
	protocol_close(child, &bio_guid, agent, child);
	protocol_uninstall(agent, &name2_guid, &token);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(buf);
}

/* DisconnectController for one child: that child goes, the controller and the other stay. */
TEST(ahci_stop_of_one_child_keeps_the_rest)
{
	struct fake_ahci *a = two_devices();

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	ASSERT(ahci_test_child(a, 1) != NULL);
	EXPECT_STATUS(driver_disconnect(a->pci->handle, NULL, ahci_test_child(a, 1)), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 1) == NULL);
	EXPECT(ahci_test_child(a, 0) != NULL);
	EXPECT(!fake_pci_io_unclaimed(a->pci));
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

static EFI_STATUS connect_port(struct fake_ahci *a, UINT16 port)
{
	SATA_DEVICE_PATH sata = {
	    {MESSAGING_DEVICE_PATH, MSG_SATA_DP, {sizeof(SATA_DEVICE_PATH), 0}}, port, 0xffff, 0};

	return connect_with(a, &sata.Header);
}

/* A child stopped alone comes back with the next ConnectController: a bus driver's Start
 * creates the children that do not exist yet (UEFI 2.10, 11.1), and Supported says
 * EFI_ALREADY_STARTED only when they all do. The driver used to say it as soon as the
 * controller was started, so the child could never be made again (EFI_NOT_FOUND). */
TEST(ahci_stopped_child_is_created_again_by_connect)
{
	struct fake_ahci *a = two_devices();
	EFI_HANDLE disk;
	UINTN disk_commands;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	disk = ahci_test_child(a, 0);
	ASSERT_STATUS(driver_disconnect(a->pci->handle, NULL, ahci_test_child(a, 1)), EFI_SUCCESS);
	EXPECT_EQ(a->pci->live_buffers, 1); /* the stopped port's memory is given back */
	disk_commands = a->ports[0].commands;
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 1) != NULL);
	EXPECT(ahci_test_child(a, 0) == disk);
	EXPECT_EQ(a->ports[0].commands, disk_commands); /* the disk was left alone */
	EXPECT_EQ(a->pci->live_buffers, 2);
	EXPECT_EQ(a->resets, 1);
	/* Every child there: nothing to start. */
	EXPECT_STATUS(ahci_test_connect(a), EFI_NOT_FOUND);
	EXPECT_EQ(children(a), 2);
	/* The same for the disk, which then reads as before. */
	ASSERT_STATUS(driver_disconnect(a->pci->handle, NULL, disk), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 0) == NULL);
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 2);
	expect_disk_reads(a);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* A remaining path naming one port creates that child alone, on a controller not yet
 * started and on one already started; a child that exists is not made twice. */
TEST(ahci_connect_naming_a_port_creates_only_that_child)
{
	struct fake_ahci *a = two_devices();

	EXPECT_STATUS(connect_port(a, 1), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 1) != NULL);
	EXPECT(ahci_test_child(a, 0) == NULL);
	EXPECT_EQ(a->ports[0].commands, 0);
	EXPECT_EQ(a->pci->live_buffers, 1);
	EXPECT_STATUS(connect_port(a, 0), EFI_SUCCESS);
	EXPECT_EQ(children(a), 2);
	EXPECT_EQ(a->ports[0].identifies, 1);
	EXPECT(EFI_ERROR(connect_port(a, 0)));
	EXPECT(EFI_ERROR(connect_port(a, 1)));
	EXPECT_EQ(a->ports[0].identifies, 1);
	EXPECT_EQ(children(a), 2);
	EXPECT_EQ(a->resets, 1);
	expect_disk_reads(a);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* Start with an End remaining path takes the controller without children (11.1); the
 * next ConnectController without a remaining path creates them all. */
TEST(ahci_children_come_after_a_start_without_children)
{
	EFI_DEVICE_PATH_PROTOCOL end = {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4}};
	struct fake_ahci *a = two_devices();

	EXPECT_STATUS(driver_connect(a->pci->handle, NULL, &end, false), EFI_SUCCESS);
	EXPECT_EQ(children(a), 0);
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 2);
	EXPECT_EQ(a->resets, 1);
	expect_disk_reads(a);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

/* Connecting again does not probe every port again: a device that could not become a child
 * (each try may cost the driver's timeouts) is tried again only when a remaining path names
 * its port, and an empty port only once its link shows a device (one plugged in since). */
TEST(ahci_connect_again_probes_only_ports_that_may_give_a_child)
{
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x7);
	struct fake_ahci_disk disk = a_disk();
	UINTN commands;

	fake_ahci_attach_disk(a, 0, &disk);
	fake_ahci_attach_disk(a, 1, &disk);
	a->ports[1].fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_ERROR, 0xec, .times = 1};
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT_EQ(children(a), 1);
	commands = a->ports[1].commands;
	EXPECT_STATUS(ahci_test_connect(a), EFI_NOT_FOUND);
	EXPECT_EQ(a->ports[1].commands, commands);
	EXPECT_STATUS(connect_port(a, 1), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 1) != NULL);
	fake_ahci_attach_disk(a, 2, &disk);
	EXPECT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 2) != NULL);
	EXPECT_EQ(children(a), 3);
	EXPECT_EQ(a->pci->live_buffers, 3);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
}

TEST(ahci_two_controllers_are_independent)
{
	struct fake_ahci *a = two_devices(), *b = ahci_test_hba(0x03, 0x10);
	struct fake_ahci_disk disk = a_disk();
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buf = malloc(512);

	fake_ahci_attach_disk(b, 4, &disk);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	ASSERT_STATUS(ahci_test_connect(b), EFI_SUCCESS);
	EXPECT_EQ(children(a), 2);
	EXPECT_EQ(children(b), 1);
	ahci_test_expect_released(a);
	bio = ahci_test_block_io(b, 4);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 512, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 512, 512, 0));
	ahci_test_expect_released(b);
	fake_ahci_destroy(a);
	fake_ahci_destroy(b);
	free(buf);
}

static void exit_boot_services(void)
{
	static const EFI_GUID exit_group = EFI_EVENT_GROUP_EXIT_BOOT_SERVICES;
	struct fake_ahci *a = two_devices();

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	a->ghc |= GHC_IE;
	EXPECT(a->ports[0].cmd & CMD_ST);
	event_signal_group(&exit_group);
	/* No DMA after ExitBootServices: engines and FIS reception off, interrupts off. */
	for (UINT8 i = 0; i < 2; i++)
		EXPECT_EQ(a->ports[i].cmd & (CMD_ST | CMD_FRE), 0);
	EXPECT_EQ(a->ghc & GHC_IE, 0);
	ahci_test_expect_no_errors(a);
	fake_ahci_destroy(a);
}

TEST(ahci_exit_boot_services_stops_dma)
{
	RUN_ISOLATED(exit_boot_services);
}

static EFI_COMPONENT_NAME2_PROTOCOL *driver_names(struct fake_ahci *a)
{
	EFI_OPEN_PROTOCOL_INFORMATION_ENTRY *entries = NULL;
	EFI_COMPONENT_NAME2_PROTOCOL *names = NULL;
	UINTN count = 0;
	static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;

	core_st->BootServices->OpenProtocolInformation(a->pci->handle, (EFI_GUID *)&pci_io_guid,
						       &entries, &count);
	for (UINTN i = 0; i < count; i++)
		if (entries[i].Attributes & EFI_OPEN_PROTOCOL_BY_DRIVER)
			protocol_get(entries[i].AgentHandle, &name2_guid, (void **)&names);
	pool_free(entries);
	return names;
}

TEST(ahci_names_the_controller_and_its_children)
{
	struct fake_ahci *a = two_devices(), *idle = two_devices_at(0x04);
	EFI_COMPONENT_NAME2_PROTOCOL *names;
	CHAR16 *name = NULL;

	fake_ahci_cd_insert(&a->ports[1], image, MIB / 2048);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	names = driver_names(a);
	ASSERT(names != NULL);
	EXPECT_STATUS(names->GetControllerName(names, a->pci->handle, NULL, (CHAR8 *)"en", &name),
		      EFI_SUCCESS);
	EXPECT(name && str16_cmp(name, u"AHCI Host Controller") == 0);
	EXPECT_STATUS(names->GetControllerName(names, a->pci->handle, ahci_test_child(a, 0),
					       (CHAR8 *)"en", &name),
		      EFI_SUCCESS);
	EXPECT(name && str16_cmp(name, u"SATA Disk") == 0);
	EXPECT_STATUS(names->GetControllerName(names, a->pci->handle, ahci_test_child(a, 1),
					       (CHAR8 *)"en", &name),
		      EFI_SUCCESS);
	EXPECT(name && str16_cmp(name, u"SATA CD/DVD Drive") == 0);
	/* Not its controller, not its child. */
	EXPECT_STATUS(
	    names->GetControllerName(names, idle->pci->handle, NULL, (CHAR8 *)"en", &name),
	    EFI_UNSUPPORTED);
	EXPECT_STATUS(names->GetControllerName(names, a->pci->handle, idle->pci->handle,
					       (CHAR8 *)"en", &name),
		      EFI_UNSUPPORTED);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	fake_ahci_destroy(idle);
}
