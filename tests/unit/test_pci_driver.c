/* The PCI driver helper (drivers/pci_driver) over a fake PciIo: PciIo opened BY_DRIVER and
 * closed again, attributes saved, enabled and put back exactly, the driver's data found from
 * the controller handle, and every failing step of pci_driver_start undone. */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/drivers/pci_driver.h>
#include <ember/lib/util.h>

#define IO EFI_PCI_IO_ATTRIBUTE_IO
#define MEM EFI_PCI_IO_ATTRIBUTE_MEMORY
#define MASTER EFI_PCI_IO_ATTRIBUTE_BUS_MASTER
#define DAC EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE
#define VGA_IO EFI_PCI_IO_ATTRIBUTE_VGA_IO

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static const EFI_GUID data_guid = EMBER_PCI_DRIVER_DATA_GUID;
/* What the fake driver handles carry: any protocol makes a handle. */
static const EFI_GUID agent_guid =
    EFI_GUID_INIT(0x3c1b0f5e, 0x52a4, 0x4e0b, 0x8d, 0x31, 0x5e, 0x0c, 0x44, 0x9a, 0x21, 0x07);

struct fake_pci {
	EFI_PCI_IO_PROTOCOL pci_io;
	EFI_HANDLE handle;
	UINT64 attributes; /* enabled now */
	UINT64 supported;
	/* The attribute operation that fails, or EfiPciIoAttributeOperationMaximum for none. */
	EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION fail_op;
	UINTN sets; /* Set operations seen */
};

static EFI_STATUS EFIAPI fake_attributes(EFI_PCI_IO_PROTOCOL *this,
					 EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op, UINT64 value,
					 UINT64 *result)
{
	struct fake_pci *f = container_of(this, struct fake_pci, pci_io);

	if (op == f->fail_op)
		return EFI_DEVICE_ERROR;
	switch (op) {
	case EfiPciIoAttributeOperationGet:
		*result = f->attributes;
		return EFI_SUCCESS;
	case EfiPciIoAttributeOperationSupported:
		*result = f->supported;
		return EFI_SUCCESS;
	case EfiPciIoAttributeOperationEnable:
		/* As PciIo does (14.4): attributes the function lacks are refused. */
		if (value & ~f->supported)
			return EFI_UNSUPPORTED;
		f->attributes |= value;
		return EFI_SUCCESS;
	case EfiPciIoAttributeOperationSet:
		f->sets++;
		f->attributes = value;
		return EFI_SUCCESS;
	default:
		return EFI_INVALID_PARAMETER;
	}
}

static struct fake_pci *fake_pci_create(UINT64 attributes, UINT64 supported)
{
	struct fake_pci *f = pool_alloc(sizeof(*f));

	if (!f)
		return NULL;
	f->pci_io.Attributes = fake_attributes;
	f->attributes = attributes;
	f->supported = supported;
	f->fail_op = EfiPciIoAttributeOperationMaximum;
	if (EFI_ERROR(protocol_install(&f->handle, &pci_io_guid, &f->pci_io))) {
		pool_free(f);
		return NULL;
	}
	return f;
}

static void fake_pci_destroy(struct fake_pci *f)
{
	protocol_uninstall(f->handle, &pci_io_guid, &f->pci_io);
	pool_free(f);
}

static EFI_HANDLE agent_create(void)
{
	EFI_HANDLE h = NULL;

	protocol_install(&h, &agent_guid, NULL);
	return h;
}

static void agent_destroy(EFI_HANDLE h)
{
	protocol_uninstall(h, &agent_guid, NULL);
}

/* Whether agent could open the controller's PciIo BY_DRIVER now (closing it again). */
static EFI_STATUS can_open(EFI_HANDLE agent, struct fake_pci *f)
{
	void *iface;
	EFI_STATUS status = protocol_open(f->handle, &pci_io_guid, &iface, agent, f->handle,
					  EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (!EFI_ERROR(status))
		protocol_close(f->handle, &pci_io_guid, agent, f->handle);
	return status;
}

TEST(pci_driver_start_enables_and_stop_restores)
{
	struct fake_pci *f = fake_pci_create(IO, IO | MEM | MASTER | VGA_IO);
	EFI_HANDLE driver = agent_create(), other = agent_create();
	struct pci_driver_dev dev, second;
	void *data;

	ASSERT(f != NULL);
	ASSERT_STATUS(pci_driver_start(&dev, driver, f->handle, MEM, MASTER | DAC), EFI_SUCCESS);
	EXPECT(dev.pci_io == &f->pci_io);
	EXPECT(dev.driver == driver && dev.controller == f->handle);
	EXPECT_EQ(dev.saved_attributes, IO);
	EXPECT_EQ(dev.supported_attributes, IO | MEM | MASTER | VGA_IO);
	/* The function lacks DAC: only what it supports of the optional set is enabled. */
	EXPECT_EQ(f->attributes, IO | MEM | MASTER);
	/* PciIo is the driver's: a second start says so, another driver is denied. */
	EXPECT_STATUS(pci_driver_start(&second, driver, f->handle, 0, 0), EFI_ALREADY_STARTED);
	EXPECT_STATUS(can_open(other, f), EFI_ACCESS_DENIED);
	/* The data is on the controller, for this driver only. */
	EXPECT(pci_driver_find(driver, f->handle) == &dev);
	EXPECT(pci_driver_find(other, f->handle) == NULL);
	EXPECT(pci_driver_find(driver, driver) == NULL);
	ASSERT_STATUS(protocol_get(f->handle, &data_guid, &data), EFI_SUCCESS);
	EXPECT(data == &dev);

	/* More attributes later; optional ones the function lacks are left out again. */
	EXPECT_STATUS(pci_driver_enable(&dev, 0, VGA_IO | DAC), EFI_SUCCESS);
	EXPECT_EQ(f->attributes, IO | MEM | MASTER | VGA_IO);

	pci_driver_stop(&dev);
	EXPECT_EQ(f->attributes, IO);
	EXPECT(pci_driver_find(driver, f->handle) == NULL);
	EXPECT_STATUS(protocol_get(f->handle, &data_guid, &data), EFI_UNSUPPORTED);
	EXPECT_STATUS(can_open(other, f), EFI_SUCCESS);
	agent_destroy(driver);
	agent_destroy(other);
	fake_pci_destroy(f);
}

TEST(pci_driver_enable_refuses_a_missing_required_attribute)
{
	struct fake_pci *f = fake_pci_create(0, MEM | MASTER);
	EFI_HANDLE driver = agent_create();
	struct pci_driver_dev dev;

	ASSERT(f != NULL);
	ASSERT_STATUS(pci_driver_start(&dev, driver, f->handle, MEM, 0), EFI_SUCCESS);
	EXPECT_STATUS(pci_driver_enable(&dev, IO, MASTER), EFI_UNSUPPORTED);
	EXPECT_EQ(f->attributes, MEM);
	EXPECT_STATUS(pci_driver_enable(&dev, MASTER, IO), EFI_SUCCESS);
	EXPECT_EQ(f->attributes, MEM | MASTER);
	pci_driver_stop(&dev);
	EXPECT_EQ(f->attributes, 0);
	agent_destroy(driver);
	fake_pci_destroy(f);
}

/* One failing step: its status, the attributes as they were, PciIo closed, no data left. */
static void expect_undone(struct fake_pci *f, EFI_HANDLE driver, EFI_STATUS status, EFI_STATUS want,
			  UINT64 attributes)
{
	EFI_HANDLE other = agent_create();

	EXPECT_STATUS(status, want);
	EXPECT_EQ(f->attributes, attributes);
	EXPECT_STATUS(can_open(other, f), EFI_SUCCESS);
	EXPECT(pci_driver_find(driver, f->handle) == NULL);
	agent_destroy(other);
}

TEST(pci_driver_start_undoes_each_failing_step)
{
	struct fake_pci *f = fake_pci_create(IO, IO | MEM | MASTER);
	EFI_HANDLE driver = agent_create(), holder = agent_create();
	struct pci_driver_dev dev, foreign;
	void *iface;

	ASSERT(f != NULL);
	/* PciIo taken by another driver. */
	ASSERT_STATUS(protocol_open(f->handle, &pci_io_guid, &iface, holder, f->handle,
				    EFI_OPEN_PROTOCOL_BY_DRIVER),
		      EFI_SUCCESS);
	EXPECT_STATUS(pci_driver_start(&dev, driver, f->handle, MEM, 0), EFI_ACCESS_DENIED);
	EXPECT_EQ(f->attributes, IO);
	protocol_close(f->handle, &pci_io_guid, holder, f->handle);

	/* The attributes cannot be read. */
	f->fail_op = EfiPciIoAttributeOperationGet;
	expect_undone(f, driver, pci_driver_start(&dev, driver, f->handle, MEM, 0),
		      EFI_DEVICE_ERROR, IO);
	f->fail_op = EfiPciIoAttributeOperationSupported;
	expect_undone(f, driver, pci_driver_start(&dev, driver, f->handle, MEM, 0),
		      EFI_DEVICE_ERROR, IO);
	EXPECT_EQ(f->sets, 0);

	/* Enabling fails: the saved attributes are set again. */
	f->fail_op = EfiPciIoAttributeOperationEnable;
	expect_undone(f, driver, pci_driver_start(&dev, driver, f->handle, MEM, 0),
		      EFI_DEVICE_ERROR, IO);
	EXPECT_EQ(f->sets, 1);
	f->fail_op = EfiPciIoAttributeOperationMaximum;
	expect_undone(f, driver, pci_driver_start(&dev, driver, f->handle, VGA_IO, MEM),
		      EFI_UNSUPPORTED, IO);

	/* The data cannot be attached (the GUID is on the handle already): everything that
	 * was enabled goes back. A foreign interface there is never taken for the data. */
	memset(&foreign, 0, sizeof(foreign));
	ASSERT_STATUS(protocol_install(&f->handle, &data_guid, &foreign), EFI_SUCCESS);
	EXPECT(pci_driver_find(driver, f->handle) == NULL);
	expect_undone(f, driver, pci_driver_start(&dev, driver, f->handle, MEM, MASTER),
		      EFI_INVALID_PARAMETER, IO);
	EXPECT_EQ(dev.signature, 0);
	protocol_uninstall(f->handle, &data_guid, &foreign);

	/* And once nothing fails, it starts. */
	ASSERT_STATUS(pci_driver_start(&dev, driver, f->handle, MEM, MASTER), EFI_SUCCESS);
	EXPECT_EQ(f->attributes, IO | MEM | MASTER);
	pci_driver_stop(&dev);
	EXPECT_EQ(f->attributes, IO);
	agent_destroy(driver);
	agent_destroy(holder);
	fake_pci_destroy(f);
}
