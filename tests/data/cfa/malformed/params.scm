(lambda x (x x))
