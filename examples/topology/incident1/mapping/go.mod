module example.com/mapping

go 1.26
