module {
  func.func @softplus_region3(%arg0: tensor<?xf64>) -> tensor<?xf64> {
    %0 = "mhlo.fusion"(%arg0) ({
    ^bb0(%arg1: tensor<?xf64>):
      %1 = "mhlo.log_plus_one"(%arg1) : (tensor<?xf64>) -> tensor<?xf64>
      "mhlo.return"(%1) : (tensor<?xf64>) -> ()
    }) {FusionKind = "Log1p", fusion_kind = #mhlo<fusion_kind kCustom>} : (tensor<?xf64>) -> tensor<?xf64>
    return %0 : tensor<?xf64>
  }
}

