(lambda (x) (y x))
