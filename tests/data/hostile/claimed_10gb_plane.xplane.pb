
€€€€(	/host:CPU