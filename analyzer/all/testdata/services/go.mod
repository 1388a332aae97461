module services

go 1.26
