	/* Test fault, after the variant's work (GT_INJECT 1, a sum without
	 * the last element, is in the call above): 2 stores far outside any
	 * buffer (a fault), 3 changes the byte after the output (an overrun). */
#if GT_INJECT >= 2
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		if (GT_INJECT == 2)
			*(volatile GT_ACC_TYPE *)((char *)out + (1ULL << 44)) = GT_ACC_TYPE(0);
		else
			((volatile unsigned char *)(out + 1))[0] ^= 1;
	}
#endif
