
	/host:CPU
€€€€abc