; The identity function called at two sites: 0-CFA merges them (x gets both arguments, both
; continuations flow to k), and halt's (z z) feeds every argument lambda to every other.
; Expected flow sets: ";= variable@line: lambdas (by parameter list)", every variable listed.
((lambda (id halt)
   (id (lambda (a) (halt a))
       (lambda (r1)
         (id (lambda (b) (halt b))
             (lambda (r2) (halt r2))))))
 (lambda (x k) (k x))
 (lambda (z) (z z)))
;= id@4: (x k)
;= halt@4: (z)
;= a@5: (a) (b)
;= r1@6: (a) (b)
;= b@7: (a) (b)
;= r2@8: (a) (b)
;= x@9: (a) (b)
;= k@9: (r1) (r2)
;= z@10: (a) (b)
