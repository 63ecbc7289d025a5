	/* Test fault, after the variant's work: GT_INJECT 1 flips a bit of
	 * out[0] (a wrong result), 2 stores far outside any buffer (a fault),
	 * 3 changes the byte 7 elements past the output (an overrun).  Thread
	 * (0, 0) of block 0 is the one that wrote out[0] (block 0 maps to tile
	 * 0 in every mapping); with rowclass=on it waits until its tensor
	 * stores are written, not just read, before it flips. */
#if GT_INJECT
	if (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
		asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
		if (GT_INJECT == 1)
			out[0] ^= (gt_elem)1;
		else if (GT_INJECT == 2)
			out[(size_t)1 << 40] = (gt_elem)0;
		else
			((volatile unsigned char *)(out + (size_t)rows * cols + 7))[0] ^= 1;
	}
#endif
