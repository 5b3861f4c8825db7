/* GetTime/SetTime and GetWakeupTime/SetWakeupTime on the CMOS real-time clock (ports
 * 0x70/0x71). QEMU keeps it in BCD, 24-hour mode; both encodings and both hour modes are
 * handled. The alarm has hour, minute and second registers only: QEMU's FADT names no
 * day or month alarm register, so wake-up times lie within the next 24 hours. */
#include <ember/core/platform.h>
#include "cpu/io.h"
#include "pure/rtc_alarm.h"
#include "qemu.h"

#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define NMI_DISABLE 0x80
#define REG_A 0x0a
#define REG_B 0x0b
#define REG_A_UIP 0x80
#define REG_B_24H 0x02
#define REG_B_BINARY 0x04
#define REG_B_SET 0x80
#define REG_C 0x0c
#define REG_ALARM_SECOND 1
#define REG_ALARM_MINUTE 3
#define REG_ALARM_HOUR 5
#define REG_CENTURY 0x32

static uint8_t cmos_read(uint8_t reg)
{
	outb(CMOS_INDEX, NMI_DISABLE | reg);
	return inb(CMOS_DATA);
}

static void cmos_write(uint8_t reg, uint8_t value)
{
	outb(CMOS_INDEX, NMI_DISABLE | reg);
	outb(CMOS_DATA, value);
}

static uint8_t from_bcd(uint8_t v, bool binary)
{
	return binary ? v : (uint8_t)((v >> 4) * 10 + (v & 15));
}

static uint8_t to_bcd(uint8_t v, bool binary)
{
	return binary ? v : (uint8_t)(((v / 10) << 4) | (v % 10));
}

static void read_once(EFI_TIME *t, uint8_t b)
{
	bool binary = b & REG_B_BINARY;
	uint8_t hour = cmos_read(4);
	bool pm = !(b & REG_B_24H) && (hour & 0x80);

	t->Second = from_bcd(cmos_read(0), binary);
	t->Minute = from_bcd(cmos_read(2), binary);
	t->Hour = from_bcd(hour & 0x7f, binary);
	if (!(b & REG_B_24H))
		t->Hour = (uint8_t)(t->Hour % 12 + (pm ? 12 : 0));
	t->Day = from_bcd(cmos_read(7), binary);
	t->Month = from_bcd(cmos_read(8), binary);
	t->Year = (UINT16)(from_bcd(cmos_read(REG_CENTURY), binary) * 100 +
			   from_bcd(cmos_read(9), binary));
}

EFI_STATUS plat_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities)
{
	bool was = plat_interrupts_disable();
	uint8_t b = cmos_read(REG_B);
	EFI_TIME first, second;

	/* Read until two passes agree, so an update in between cannot tear the value. */
	do {
		while (cmos_read(REG_A) & REG_A_UIP)
			;
		read_once(&first, b);
		read_once(&second, b);
	} while (first.Second != second.Second || first.Minute != second.Minute ||
		 first.Hour != second.Hour || first.Day != second.Day);
	if (was)
		plat_interrupts_enable();
	*time = second;
	time->Nanosecond = 0;
	time->TimeZone = EFI_UNSPECIFIED_TIMEZONE;
	time->Daylight = 0;
	if (capabilities)
		*capabilities = (EFI_TIME_CAPABILITIES){
		    .Resolution = 1, .Accuracy = 50000000, .SetsToZero = FALSE};
	return EFI_SUCCESS;
}

EFI_STATUS plat_set_time(const EFI_TIME *t)
{
	bool was = plat_interrupts_disable();
	uint8_t b = cmos_read(REG_B);
	bool binary = b & REG_B_BINARY;
	uint8_t hour = t->Hour;

	if (!(b & REG_B_24H))
		hour = (uint8_t)(to_bcd(t->Hour % 12 ? t->Hour % 12 : 12, binary) |
				 (t->Hour >= 12 ? 0x80 : 0));
	else
		hour = to_bcd(hour, binary);
	cmos_write(REG_B, b | REG_B_SET); /* hold updates while writing */
	cmos_write(0, to_bcd(t->Second, binary));
	cmos_write(2, to_bcd(t->Minute, binary));
	cmos_write(4, hour);
	cmos_write(7, to_bcd(t->Day, binary));
	cmos_write(8, to_bcd(t->Month, binary));
	cmos_write(9, to_bcd((uint8_t)(t->Year % 100), binary));
	cmos_write(REG_CENTURY, to_bcd((uint8_t)(t->Year / 100), binary));
	cmos_write(REG_B, b);
	if (was)
		plat_interrupts_enable();
	return EFI_SUCCESS;
}

/* The date of the last alarm set (the RTC keeps only its time of day), and whether the
 * alarm has rung since: reading register C clears AF, so the flag is kept here until
 * SetWakeupTime acknowledges it. */
static EFI_TIME alarm_set;
static bool alarm_has_date;
static bool alarm_rang;

bool plat_has_wakeup_alarm(void)
{
	return true;
}

EFI_STATUS plat_get_wakeup_time(BOOLEAN *enabled, BOOLEAN *pending, EFI_TIME *time)
{
	bool was = plat_interrupts_disable();
	uint8_t b = cmos_read(REG_B);
	struct rtc_alarm_regs regs = {cmos_read(REG_ALARM_SECOND), cmos_read(REG_ALARM_MINUTE),
				      cmos_read(REG_ALARM_HOUR)};
	EFI_TIME now;

	/* The RTC sets AF at every match, enabled or not: only an enabled alarm rings. */
	if ((cmos_read(REG_C) & RTC_REG_C_AF) && (b & RTC_REG_B_AIE))
		alarm_rang = true;
	if (was)
		plat_interrupts_enable();
	plat_get_time(&now, NULL);
	*time = now;
	if (!rtc_alarm_decode(&regs, b, time))
		return EFI_DEVICE_ERROR; /* someone left "don't care" values or garbage there */
	/* The date is the one SetWakeupTime was given while the registers still hold its
	 * time of day; an alarm programmed by someone else is reported on today's date. */
	if (alarm_has_date && alarm_set.Hour == time->Hour && alarm_set.Minute == time->Minute &&
	    alarm_set.Second == time->Second)
		*time = alarm_set;
	*enabled = (b & RTC_REG_B_AIE) != 0;
	*pending = alarm_rang;
	return EFI_SUCCESS;
}

EFI_STATUS plat_set_wakeup_time(BOOLEAN enable, const EFI_TIME *time)
{
	struct rtc_alarm_regs regs;
	EFI_TIME now;
	bool was;
	uint8_t b;

	if (enable) {
		plat_get_time(&now, NULL);
		if (!rtc_alarm_reachable(&now, time))
			return EFI_INVALID_PARAMETER; /* the alarm cannot hold that date */
	}
	was = plat_interrupts_disable();
	b = cmos_read(REG_B);
	/* Disabling, or setting anew, acknowledges an alarm that rang. */
	cmos_read(REG_C);
	alarm_rang = false;
	if (enable) {
		rtc_alarm_encode(time, b, &regs);
		cmos_write(REG_ALARM_SECOND, regs.second);
		cmos_write(REG_ALARM_MINUTE, regs.minute);
		cmos_write(REG_ALARM_HOUR, regs.hour);
		alarm_set = *time;
		alarm_has_date = true;
		cmos_write(REG_B, b | RTC_REG_B_AIE);
	} else {
		cmos_write(REG_B, b & (uint8_t)~RTC_REG_B_AIE);
	}
	if (was)
		plat_interrupts_enable();
	return EFI_SUCCESS;
}
