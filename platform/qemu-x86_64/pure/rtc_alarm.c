/* Encoding of the CMOS RTC alarm registers (see rtc_alarm.h). */
#include "rtc_alarm.h"
#include <ember/lib/time.h>

#define SECONDS_PER_DAY 86400
#define HOUR_PM 0x80

static UINT8 to_reg(UINT8 v, bool binary)
{
	return binary ? v : (UINT8)(((v / 10) << 4) | (v % 10));
}

/* The value of a register, or -1 when it is not a number below `limit`. */
static int from_reg(UINT8 v, bool binary, int limit)
{
	int n = v;

	if (!binary) {
		if ((v & 15) > 9 || (v >> 4) > 9)
			return -1;
		n = (v >> 4) * 10 + (v & 15);
	}
	return n < limit ? n : -1;
}

void rtc_alarm_encode(const EFI_TIME *time, UINT8 reg_b, struct rtc_alarm_regs *regs)
{
	bool binary = reg_b & RTC_REG_B_BINARY;
	UINT8 hour12 = time->Hour % 12 ? time->Hour % 12 : 12;

	regs->second = to_reg(time->Second, binary);
	regs->minute = to_reg(time->Minute, binary);
	if (reg_b & RTC_REG_B_24H)
		regs->hour = to_reg(time->Hour, binary);
	else
		regs->hour = (UINT8)(to_reg(hour12, binary) | (time->Hour >= 12 ? HOUR_PM : 0));
}

bool rtc_alarm_decode(const struct rtc_alarm_regs *regs, UINT8 reg_b, EFI_TIME *time)
{
	bool binary = reg_b & RTC_REG_B_BINARY;
	int second = from_reg(regs->second, binary, 60);
	int minute = from_reg(regs->minute, binary, 60);
	int hour;

	if (reg_b & RTC_REG_B_24H) {
		hour = from_reg(regs->hour, binary, 24);
	} else {
		/* 12-hour mode: 1..12 with bit 7 for PM; 12 AM is midnight. */
		hour = from_reg(regs->hour & (UINT8)~HOUR_PM, binary, 13);
		if (hour == 0)
			hour = -1;
		else if (hour > 0)
			hour = hour % 12 + (regs->hour & HOUR_PM ? 12 : 0);
	}
	if (second < 0 || minute < 0 || hour < 0)
		return false;
	time->Hour = (UINT8)hour;
	time->Minute = (UINT8)minute;
	time->Second = (UINT8)second;
	return true;
}

bool rtc_alarm_reachable(const EFI_TIME *now, const EFI_TIME *alarm)
{
	INT64 ahead = efi_time_to_unix(alarm) - efi_time_to_unix(now);

	return ahead > 0 && ahead <= SECONDS_PER_DAY;
}
