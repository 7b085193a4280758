/*
 * bcryptprimitives.dll for testing under Wine only: ProcessPrng over
 * BCryptGenRandom.
 *
 * Go's Windows runtime (1.22 on) draws its random bytes from
 * bcryptprimitives.dll's ProcessPrng, which every Windows since 10 has and
 * Wine 8.0 lacks: without this DLL in the prefix's system32, no Go program
 * starts under Wine 8.0. A Windows user never needs it. scripts/windows-test
 * builds it with MinGW and copies it into its own prefix.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll \
 *        bcryptprimitives.c bcryptprimitives.def -lbcrypt
 */
#include <windows.h>
#include <bcrypt.h>

/*
 * ProcessPrng fills buf with len random bytes and returns TRUE, as the
 * real one does (it never fails); here a failure of BCryptGenRandom
 * returns FALSE, which Go's runtime treats as fatal.
 */
BOOL WINAPI ProcessPrng(PBYTE buf, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, buf, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) {
			return FALSE;
		}
		buf += n;
		len -= n;
	}
	return TRUE;
}
